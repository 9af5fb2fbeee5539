package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"
)

// version and buildDate may be set at build time with
// -ldflags "-X main.version=v1.2.0 -X main.buildDate=2026-11-25T10:00:00Z";
// otherwise they come from the build info the go command records.
var (
	version   = ""
	buildDate = ""
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the module version, the VCS commit and the build date",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bi, _ := debug.ReadBuildInfo() // nil without build info
			return writeVersion(cmd.OutOrStdout(), bi, version, buildDate)
		},
	}
}

// buildFacts is what a binary says about its build.
type buildFacts struct {
	Version, Path, Revision, Modified, Date, GoVersion string
}

// readBuild reads what build info bi says about the binary: the module
// version, the commit (marked when built from a modified tree), the build
// date and the Go version. ver and date, when set by the linker, take
// precedence. Without a VCS stamp (go test, go run, a build outside a
// checkout) the commit says so; the date is then the commit's time when
// known.
func readBuild(bi *debug.BuildInfo, ver, date string) buildFacts {
	var rev, at, modified, goVer, path string
	if bi != nil {
		goVer, path = bi.GoVersion, bi.Main.Path
		if ver == "" {
			ver = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					modified = " (modified)"
				}
			}
		}
	}
	if ver == "" {
		ver = "(devel)"
	}
	if path == "" {
		path = "arbiter"
	}
	if rev == "" {
		rev, modified = "unknown (built without VCS information)", ""
	}
	switch {
	case date != "":
	case at != "":
		date = at + " (commit time)"
	default:
		date = "unknown"
	}
	if goVer == "" {
		goVer = "unknown"
	}
	return buildFacts{Version: ver, Path: path, Revision: rev, Modified: modified, Date: date, GoVersion: goVer}
}

// writeVersion prints readBuild's facts.
func writeVersion(w io.Writer, bi *debug.BuildInfo, ver, date string) error {
	b := readBuild(bi, ver, date)
	_, err := fmt.Fprintf(w, "arbiter %s\nmodule:  %s\ncommit:  %s%s\nbuilt:   %s\ngo:      %s\n", b.Version, b.Path, b.Revision, b.Modified, b.Date, b.GoVersion)
	return err
}

// buildInfoMetric is arbiter_build_info: 1, labelled with the binary's
// version, commit, build date and Go version, for dashboards to show what
// runs.
func buildInfoMetric() prometheus.Collector {
	bi, _ := debug.ReadBuildInfo()
	b := readBuild(bi, version, buildDate)
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiter_build_info",
		Help:        "The running arbiter's version, commit, build date and Go version (always 1).",
		ConstLabels: prometheus.Labels{"version": b.Version, "revision": b.Revision + b.Modified, "built": b.Date, "goversion": b.GoVersion}})
	g.Set(1)
	return g
}
