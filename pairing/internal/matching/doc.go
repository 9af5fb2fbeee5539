// Package matching keeps a maximum weight matching of a dense general
// graph up to date while its caller changes the edge weights, a few
// vertices at a time, thousands of times: Edmonds' blossom algorithm in
// its primal-dual form, incremental, over multi-word integer weights
// (Weight) that the caller builds and the matcher interns.
//
// The interface is small. New and NewOdd make a Matcher for n vertices;
// Set, SetID, SetRow and SetShifted change edges (by weight, or by the id
// Intern returns); Compute returns a maximum weight matching; Decide takes
// a matched pair out of the graph for good. BestPartner, PairAcross,
// RaiseDual and WarmStart let the caller steer the search cheaply when it
// knows more about the next change than the solver does. Cardinality
// answers the unweighted question of which vertices some maximum matching
// leaves unpaired.
//
// The package knows nothing of what the weights mean: package pairing
// builds them from the FIDE criteria, as bbpPairings keeps its matching/
// directory apart from dutch.cpp.
package matching
