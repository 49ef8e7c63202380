package rules

// mainLine plays a record's main line on a board by the rules Adjudicate
// and Replay share, so that the board a game page draws is the one the
// verdict was counted on: setup stones, handicap stones on the standard
// points, and void moves (an illegal move counts as a pass; under the 2002
// Chinese rules a second move in a row by one side is not played at all).
type mainLine struct {
	b        *Board
	rules    RuleSet
	refereed bool // the 2002 Chinese rules, refereed (not BoardOnly)
	// handicap is the game's handicap as played: a record's HA with white
	// setup stones is a problem or teaching position, not a handicap game.
	handicap int
	placed   bool // the handicap stones went on the standard points
	// whiteSetupHA is the HA of a record set up with white stones too.
	whiteSetupHA int
	// the setup stones before the first move
	setupBlack, setupWhite int

	last         Color // the previous move's colour; Empty after setup or PL
	setupPending bool
	passes       int // passes in a row (a void move is no pass)
}

// stepOutcome is what one step of the record did.
type stepOutcome struct {
	move      bool      // the step is a move: counted, played or void
	pass      bool      // a pass, played
	double    bool      // void: a second move in a row (refereed)
	violation Violation // void: the rule the move broke (NoViolation otherwise)
}

// newMainLine sets up g's board under opt: the rule set (opt's or the
// record's), suicide and ko, and the handicap stones.
func newMainLine(g *Game, opt Options) (*mainLine, error) {
	rules := opt.Rules
	if rules == "" {
		rules = ruleSetForRecord(g.Rules)
	}
	b, err := NewBoard(g.Size)
	if err != nil {
		return nil, err
	}
	b.AllowSuicide = rules == Ing || rules == TrompTaylor
	if opt.Ko != nil {
		b.KoRule = *opt.Ko
	}
	m := &mainLine{b: b, rules: rules, refereed: rules == Chinese && !opt.BoardOnly, handicap: g.Handicap}
	for _, s := range g.Steps {
		if s.Kind == MoveStep {
			break
		}
		if s.Kind == SetupStep && s.Color == Black {
			m.setupBlack++
		}
		if s.Kind == SetupStep && s.Color == White {
			m.setupWhite++
		}
	}
	if m.setupWhite > 0 && g.Handicap >= 2 {
		m.whiteSetupHA, m.handicap = g.Handicap, 0
	}
	m.placed = m.handicap >= 2 && m.setupBlack == 0
	toMove := firstMover(g)
	if m.placed {
		pts, err := HandicapPoints(g.Size, m.handicap)
		if err != nil {
			return nil, err
		}
		for _, c := range pts {
			b.Setup(Black, b.At(c.X, c.Y))
		}
		toMove = White
	}
	b.Remember(toMove)
	return m, nil
}

// step plays one step of the record.
func (m *mainLine) step(s Step) stepOutcome {
	switch s.Kind {
	case SetupStep:
		if m.b.OnBoard(s.At.X, s.At.Y) {
			m.b.Setup(s.Color, m.b.At(s.At.X, s.At.Y))
			m.setupPending = true
		}
		m.last = Empty
		return stepOutcome{}
	case PlayerStep: // the next move's own colour says who plays
		m.last = Empty
		return stepOutcome{}
	}
	if m.setupPending {
		m.b.Remember(s.Color)
		m.setupPending = false
	}
	if m.refereed && s.Color == m.last {
		// article 17: void, and the turn stays with the other side, so
		// nothing is played
		return stepOutcome{move: true, double: true}
	}
	m.last = s.Color
	if s.Pass {
		m.b.Play(s.Color, Pass)
		m.passes++
		return stepOutcome{move: true, pass: true}
	}
	v := OffBoard
	if m.b.OnBoard(s.At.X, s.At.Y) {
		v = m.b.Play(s.Color, m.b.At(s.At.X, s.At.Y))
	}
	m.passes = 0
	if v != NoViolation {
		// void, and the turn passes; but a void move is no player's
		// choice to pass, so it never ends the game
		m.b.Play(s.Color, Pass)
	}
	return stepOutcome{move: true, violation: v}
}

// ended says two passes in a row have ended the game.
func (m *mainLine) ended() bool { return m.passes >= 2 }
