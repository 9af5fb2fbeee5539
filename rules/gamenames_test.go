package rules_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/rules"
	_ "arbiter/rules/chess"
	_ "arbiter/rules/kvaa"
	_ "arbiter/rules/shogi"
	_ "arbiter/rules/tavreli"
	_ "arbiter/rules/tensor"
)

// gameNameUses are the places outside rules/ allowed to spell a game's
// name, by file (from the module's root) and name, with the reason. They
// are values that happen to be a game's name, not facts about the game.
var gameNameUses = map[[2]string]string{
	{"arbiter/config.go", "chess"}:         `the illegal-move policy "chess" is FIDE's penalty, for any game`,
	{"cmd/arbiter/pairing.go", "chess"}:    "a colour policy of the pairing command, not a game",
	{"cmd/arbiter/pairing.go", "shogi"}:    "a colour policy of the pairing command, not a game",
	{"cmd/arbiter/simulate.go", "tavreli"}: "the default of a --game flag",
	{"cmd/arbiter/perft.go", "tavreli"}:    "the default of a --game flag",
	{"export/read.go", "kvaa"}:             "the file extension .kvaa of Kvaa records",
	{"export/records.go", "kvaa"}:          "the name and file extension of the Kvaa record format",
	{"demo/demo.go", "chess"}:              "the demo's simulated DGT board: a DGT e-board's pieces are chess pieces",
}

// A game's facts live in its registration (rules.Describe, and its record
// formats in rules.RegisterFormat), so no code outside rules/ may switch
// on a game's name: it may not spell one (a string literal equal to a
// registered game's name, in Go or quoted in a template), nor compare with
// a game package's Name constant. A sixth game is then one package and one import. Tests are
// exempt: they name the games they play.
func TestNoGameNameSwitchOutsideRules(t *testing.T) {
	names := rules.Games()
	require.Subset(t, names, []string{"chess", "kvaa", "shogi", "tavreli", "tensor"})
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(root, "go.mod"))
	require.NoError(t, err, "the module's root is above rules/")

	var found []string
	used := map[[2]string]bool{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "rules" || rel == "testdata" || strings.HasSuffix(rel, "/testdata") ||
				(strings.HasPrefix(d.Name(), ".") && rel != ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".html") {
			// Templates: a comparison such as eq .Game "shogi".
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(data), "\n") {
				for _, name := range names {
					if strings.Contains(line, strconv.Quote(name)) {
						found = append(found, rel+":"+strconv.Itoa(i+1)+": the game name "+strconv.Quote(name))
					}
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, where := range gameNameSwitches(fset, f, names) {
			key := [2]string{rel, where.name}
			if _, ok := gameNameUses[key]; ok && where.literal {
				used[key] = true
				continue
			}
			found = append(found, rel+":"+strconv.Itoa(where.line)+": "+where.what)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Empty(t, found, "game facts belong in the game's registration (rules.Describe, rules.RegisterFormat)")
	for key, why := range gameNameUses {
		assert.True(t, used[key], "%s no longer spells %q (%s): drop it from gameNameUses", key[0], key[1], why)
	}
}

// nameUse is one place a file names a game.
type nameUse struct {
	line    int
	name    string
	literal bool // a string literal, not a Name constant
	what    string
}

// gameNameSwitches finds in f the string literals equal to a game's name
// and the comparisons (==, !=, case) with a game package's Name.
func gameNameSwitches(fset *token.FileSet, f *ast.File, names []string) []nameUse {
	games := map[string]bool{} // local names of imported game packages
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		rest, ok := strings.CutPrefix(path, "arbiter/rules/")
		if !ok || strings.Contains(rest, "/") {
			continue
		}
		local := rest
		if imp.Name != nil {
			local = imp.Name.Name
		}
		games[local] = true
	}
	isName := func(e ast.Expr) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Name" {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && games[id.Name]
	}
	var out []nameUse
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err == nil && slices.Contains(names, s) {
				out = append(out, nameUse{fset.Position(n.Pos()).Line, s, true, "the game name " + n.Value})
			}
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isName(n.X) || isName(n.Y)) {
				out = append(out, nameUse{fset.Position(n.Pos()).Line, "", false, "a comparison with a game's Name"})
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if isName(e) {
					out = append(out, nameUse{fset.Position(e.Pos()).Line, "", false, "a case on a game's Name"})
				}
			}
		}
		return true
	})
	return out
}
