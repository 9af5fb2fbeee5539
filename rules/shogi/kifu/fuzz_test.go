package kifu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func seedFiles(f *testing.F, pattern string) {
	names, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil {
		f.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func fuzzRecord(t *testing.T, r *Record) {
	// Whatever reads must write and read back to the same moves.
	for name, write := range map[string]func(*Record) (string, error){
		"kif": func(r *Record) (string, error) { return WriteKIF(r, KIFOptions{}) },
		"ki2": WriteKI2,
		"csa": WriteCSA,
	} {
		out, err := write(r)
		if err != nil {
			t.Fatalf("write %s of a record that read: %v", name, err)
		}
		var back *Record
		switch name {
		case "kif":
			back, err = ReadKIF([]byte(out))
		case "ki2":
			back, err = ReadKI2([]byte(out))
		default:
			back, err = ReadCSA([]byte(out))
		}
		if err != nil {
			t.Fatalf("%s written does not read: %v\n%s", name, err, out)
		}
		if strings.Join(usis(back), " ") != strings.Join(usis(r), " ") {
			t.Fatalf("%s round trip changed the moves", name)
		}
	}
}

func FuzzKIF(f *testing.F) {
	seedFiles(f, "*.kif")
	f.Add([]byte("手合割：香落ち\n手数----指手--\n   1 ３四歩(33)\n   2 投了\n"))
	f.Add([]byte("後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金\n手数----指手--\n   1 ５二金打\n   2 詰み\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadKIF(data)
		if err != nil {
			return
		}
		fuzzRecord(t, r)
	})
}

func FuzzKI2(f *testing.F) {
	seedFiles(f, "*.ki2")
	f.Add([]byte("▲７六歩 △３四歩 ▲６八銀 △４二銀 ▲５八金右\nまで5手で中断\n"))
	f.Add([]byte("▲７六歩 △３四歩 ▲５五と打\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadKI2(data)
		if err != nil {
			return
		}
		fuzzRecord(t, r)
	})
}

func FuzzCSA(f *testing.F) {
	seedFiles(f, "*.csa")
	f.Add([]byte("V2.2\nP1 *  *  *  *  *  *  *  * -OU\nP9+OU\nP+00KI\nP-00AL\n+\n+0012KI\n%TSUMI\n"))
	f.Add([]byte("V2.2\nPI82HI22KA\n-\n-3334FU,T1\n%KACHI\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadCSA(data)
		if err != nil {
			return
		}
		fuzzRecord(t, r)
	})
}
