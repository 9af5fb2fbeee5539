package config

import (
	"fmt"
	"strconv"
)

// addressProblems checks the bus addresses of port entry key: only a
// dgt-bus line has them, each a board's own address, none given twice.
func (p Port) addressProblems(key string) []Problem {
	if len(p.Addresses) == 0 {
		return nil
	}
	if p.Protocol != ProtocolDGTBus {
		return []Problem{{Key: key + ".addresses", Value: fmt.Sprint(p.Addresses),
			Why: "only a line of DGT boards in bus mode (protocol: " + ProtocolDGTBus + ") has bus addresses"}}
	}
	var ps []Problem
	first := map[int]int{}
	for j, a := range p.Addresses {
		k := fmt.Sprintf("%s.addresses[%d]", key, j)
		switch prev, seen := first[a]; {
		case a < 1 || a > MaxBusAddress:
			ps = append(ps, Problem{Key: k, Value: strconv.Itoa(a), Why: fmt.Sprintf("a bus address is between 1 and %d", MaxBusAddress)})
		case seen:
			ps = append(ps, Problem{Key: k, Value: strconv.Itoa(a), Why: fmt.Sprintf("given twice (addresses[%d] and [%d])", prev, j)})
		default:
			first[a] = j
		}
	}
	return ps
}
