// Package imports lists what Go files import, for the tests that keep
// the layers apart (no driver behind the board boundary, no game's
// package above package rules).
package imports

import (
	"fmt"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Import is one import of a file: the imported path and where it is
// written ("../director/claims.go:12:2").
type Import struct {
	Path, Pos string
}

// Of returns the imports of files, or of every non-test Go file of dir
// when files is empty (files are names within dir). It is an error when
// there is no file to read.
func Of(dir string, files ...string) ([]Import, error) {
	if len(files) == 0 {
		all, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return nil, err
		}
		for _, f := range all {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, filepath.Base(f))
			}
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Go files in %s", dir)
	}
	fset := token.NewFileSet()
	var out []Import
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			return nil, err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", fset.Position(imp.Pos()), err)
			}
			out = append(out, Import{Path: p, Pos: fset.Position(imp.Pos()).String()})
		}
	}
	return out, nil
}
