// Package tournaments holds competitions: events and their participants,
// pairing (Berger round robin, Swiss and McMahon, knockout brackets),
// results, standings with the tie-breaks of the Chinese rules and of the
// EGD/OpenGotha world, dan-grade groups, and the EGD h-file and OpenGotha XML
// formats. The pairing, standings and file formats are pure; storage lives in
// store.go.
package tournaments
