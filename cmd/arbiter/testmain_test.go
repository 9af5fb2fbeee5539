package main

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs up to four of the parallel serve tests at once, unless
// -parallel says otherwise: most of their time is waiting (a cut link, a
// demo's players thinking, a hub catching up), not computing, and two at a
// time on two cores kept go test ./... above three minutes.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", "4"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
