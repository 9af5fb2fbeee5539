package tavreli_test

import (
	"fmt"

	"arbiter/rules"
	"arbiter/rules/tavreli"
)

func ExampleBoard_Perft() {
	b := tavreli.StartBoard()
	for d := 1; d <= 3; d++ {
		fmt.Println(d, b.Perft(d))
	}
	// Output:
	// 1 39
	// 2 1519
	// 3 68299
}

func ExampleParseGame() {
	rec, err := tavreli.ParseGame(`[Alphabet "cyrillic"]
1. д2-д4 д7-д5 2. ж1-е3 б8-в6 3. е3-д5 *`)
	if err != nil {
		fmt.Println(err)
		return
	}
	last := rec.Plies[len(rec.Plies)-1]
	fmt.Println(last.Text, last.Warnings)
	end := rec.End()
	fmt.Println(end.TFEN())
	// Output:
	// е3-д5 [separator -, but the move forms a tower on e5: read as x]
	// r1bqkbnr/prpnpbpq1pbpnpr/2n5/4[phN]3/4PH3/8/PRPNPBPQ1PBPNPR/RNBQKB1R b KQkq - ABCDFGHabcdfgh 0 3
}

func ExamplePosition_ParseMove() {
	g, _ := rules.New("tavreli", nil)
	p, _ := g.ParsePosition(tavreli.AnalysisPrefix + "2[PBR]5/8/4k3/8/8/8/8/K7 w - - - 0 1")
	m, err := p.ParseMove("(1)c8-c1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m, p.FormatMove(m))
	// Output:
	// c8c1 (1)c8=B-c1+
}
