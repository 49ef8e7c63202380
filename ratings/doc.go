// Package ratings rates players from game results and measures how well
// rating systems predict them. It is pure: no I/O beyond the io.Reader
// given to ReadGames, no database, nothing of the registry.
//
// The project's own system is Bayes: a Gaussian belief per player on the
// GoR scale (1d = 2100, 100 per grade), updated per game by a Glicko-like
// Newton step on the GoR's own strength-dependent win model, with three
// things the GoR lacks: per-player uncertainty (newcomers move fast,
// established players slowly, predictions are flattened by both players'
// uncertainty), time (the variance grows with days away and games played)
// and the declared rank (a new rank is a noisy observation, combined by a
// Kalman step, as the AGA reseeds promoted players). Why this design: the
// GoR's fixed con over-reacts for established players and under-reacts for
// newcomers, and its predictions are over-confident (calibration slope far
// below 1); a Bayesian filter fixes both while staying one pass with
// constant work per game, so a million games replay at about parsing speed.
// WHR revises whole histories and replays ten times slower, for no gain on
// KGS, AGA or Tygem.
//
// The baselines are GoR 2021 exactly as the EGD computes it (GoR), Elo,
// Glicko-2 and an incremental WHR. Every system turns handicap and komi
// into an advantage for black by one rule, StonesToBlack, and starts a
// newcomer at his declared rank.
//
// Replay predicts each game before its result is used (per game or per
// round); Score, CalibrationSlope and PairedBootstrap measure predictions;
// Splits are the evaluation protocol of spec/ratings.md; Tune fits a
// system's parameters on a training part.
package ratings
