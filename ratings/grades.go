package ratings

import "math"

const gradeFeatures = 3

// Grades is the learned weight of the declared grades: a Bayesian online
// logistic regression of each result on three inputs — a constant, the
// grades' logit (the two declared grades with black's advantage on the
// ratings' win model) and the ratings' own logit — whose weights start at "the ratings alone"
// (0, 0, 1) and are updated after every game by one assumed-density step
// (Laplace approximation of the logistic likelihood, a 3×3 Kalman update).
//
// Why: how much a grade is worth depends on who issued it. An association's
// entry grade is its current judgement of the player, built from more games
// than a registry sees, and the rank difference alone predicts well; a
// self-declared rank on a server says less than the rating built from the
// player's games. Rather than fix RankSD for one kind of data, the weights
// learn from the results seen so far which of the two to believe, and in
// which proportion; the weight of the ratings' logit also recalibrates it
// (a rating system that is over-confident on some data gets a weight below
// 1), so the defaults are calibrated on any history. The weights only ever
// see earlier results, so a replay stays a fair prediction.
type Grades struct {
	Mean [gradeFeatures]float64
	Cov  [gradeFeatures][gradeFeatures]float64
	N    int // games learned from
	// Forget is the variance each weight gains per game, so that the
	// weights follow a population whose grades change meaning over the
	// years (an old weight counts as if from gradeMemory games ago).
	Forget float64
}

// gradeMemory is how many games the weights effectively remember.
const gradeMemory = 30000.0

// NewGrades is the prior: the ratings alone, each weight with sd learn.
func NewGrades(learn float64) Grades {
	g := Grades{Mean: [gradeFeatures]float64{0, 0, 1}, Forget: learn * learn / gradeMemory}
	for i := range gradeFeatures {
		g.Cov[i][i] = learn * learn
	}
	return g
}

// Predict is P(black wins) for inputs f, flattened by the weights'
// uncertainty (the probit approximation of the logistic-normal integral).
func (g *Grades) Predict(f [gradeFeatures]float64) float64 {
	z, s2 := g.moments(f)
	return 1 / (1 + math.Exp(-z/math.Sqrt(1+math.Pi*s2/8)))
}

func (g *Grades) moments(f [gradeFeatures]float64) (z, s2 float64) {
	for i := range gradeFeatures {
		z += g.Mean[i] * f[i]
		for j := range gradeFeatures {
			s2 += f[i] * g.Cov[i][j] * f[j]
		}
	}
	return z, s2
}

// Update learns from one result y (black's score) of a game with inputs f.
func (g *Grades) Update(f [gradeFeatures]float64, y float64) {
	z, s2 := g.moments(f)
	p := 1 / (1 + math.Exp(-z))
	h := p * (1 - p)
	var cf [gradeFeatures]float64 // Cov f
	for i := range gradeFeatures {
		for j := range gradeFeatures {
			cf[i] += g.Cov[i][j] * f[j]
		}
	}
	d := 1 + h*s2
	for i := range gradeFeatures {
		g.Mean[i] += cf[i] * (y - p) / d
		for j := range gradeFeatures {
			g.Cov[i][j] -= cf[i] * cf[j] * h / d
		}
	}
	for i := range gradeFeatures {
		g.Cov[i][i] += g.Forget
	}
	g.N++
}

// Weights are the grades' and the ratings' weights, each per logit of its
// own prediction: how much each has proven to be worth so far.
func (g *Grades) Weights() (grade, rating float64) { return g.Mean[1], g.Mean[2] }
