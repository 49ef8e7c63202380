package tournaments

// ElimPlayer is a player's state in a multiple-elimination event.
type ElimPlayer struct {
	ID     int
	Seed   int // 1 is the strongest
	Losses int
	Met    map[int]bool
	Colour int
	HadBye bool
}

// EliminationRound pairs a round of an event in which a player is out after
// `lives` losses (2: double elimination; the Chinese rules also know more).
// Survivors meet players with as many losses where they can, by seed, never
// the same opponent twice while another pairing exists; an odd field's
// lowest seed without a bye goes through. It reports the winner once one
// player is left.
func EliminationRound(players []ElimPlayer, lives int, seed uint64) (SwissRound, int, error) {
	var alive []SwissPlayer
	for _, p := range players {
		if p.Losses < lives {
			alive = append(alive, SwissPlayer{ID: p.ID, Score: -p.Losses, Strength: -p.Seed, Met: p.Met, Colour: p.Colour, HadBye: p.HadBye})
		}
	}
	switch len(alive) {
	case 0:
		return SwissRound{}, 0, ReasonEliminationEmpty.New()
	case 1:
		return SwissRound{}, alive[0].ID, nil
	}
	r, err := PairSwiss(alive, seed)
	if err != nil {
		// late in an elimination the survivors may all have met: a rematch is allowed then
		for i := range alive {
			alive[i].Met = nil
		}
		r, err = PairSwiss(alive, seed)
	}
	return r, 0, err
}
