package tiebreak

// The conversion tables of the FIDE Rating Regulations (B.02, tables 8.1a
// and 8.1b), used by TPR and PTP.

// dpByPercent[p] is the rating difference dp for a fractional score of p %
// (table 8.1a), for p = 50…100; lower scores mirror it with a minus sign.
var dpByPercent = [51]int{
	0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
	72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
	149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
	240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
	366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
	800,
}

// dp returns the rating difference for a score of percent % (0…100).
func dp(percent int) int {
	if percent >= 50 {
		return dpByPercent[percent-50]
	}
	return -dpByPercent[50-percent]
}

// pdUpper[i] is the largest rating difference whose expected score for the
// stronger player is 50+i % (table 8.1b); differences above 735 give 100 %.
var pdUpper = [50]int{
	3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
	76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
	153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
	245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
	374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
}

// pdByDiff[d] is the stronger player's expected score in percent for a
// rating difference d (0…735), expanded from pdUpper.
var pdByDiff = func() (t [736]uint8) {
	d := 0
	for i, up := range pdUpper {
		for ; d <= up; d++ {
			t[d] = uint8(50 + i)
		}
	}
	return t
}()

// expectedPercent returns the expected score in percent of a player rated
// rating against an opponent rated opponent (table 8.1b).
func expectedPercent(rating, opponent int) int {
	diff := rating - opponent
	stronger := diff > 0
	if diff < 0 {
		diff = -diff
	}
	pd := 100
	if diff < len(pdByDiff) {
		pd = int(pdByDiff[diff])
	}
	if stronger {
		return pd
	}
	return 100 - pd
}
