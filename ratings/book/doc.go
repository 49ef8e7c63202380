// Package book keeps the registry's ratings: who is rated (registered
// players by id, guests by EGD PIN or name and country), each player's
// belief as it stands, his rating after every event, and a record of every
// computation (tables rating_players, rating_history, rating_runs, through
// the kernel's transactions and event log).
//
// The arithmetic is the pure core's (ratings.Bayes with
// ratings.DefaultBayes, or the latest tuned version in rating_params): book only reads the games of finished events
// through tournaments' read API, feeds them to the core round by round and
// stores the result. RateEventTx rates one event as it finishes (inside the
// finishing transaction); Recompute rebuilds everything from the games in
// time order. Both run the same code on the same order, so when events
// finish in the order of their dates the two agree exactly: the stored
// float64 values go through PostgreSQL's double precision unchanged.
package book
