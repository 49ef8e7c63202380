package audit

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/dankyu/dankyu/tournaments"
)

// FuzzReadPairing checks the pairing's hand decoder against encoding/json:
// whatever it accepts, encoding/json decodes without error to the same
// round and pairs.
func FuzzReadPairing(f *testing.F) {
	for _, s := range []string{
		`{"bye":0,"pairs":[{"Black":1,"White":2,"Nigiri":false},{"Black":4,"White":3,"Nigiri":true}],"round":1,"seed":7}`,
		`{"bye":5,"pairs":[],"round":3,"seed":-2,"together":[{"Black":1,"White":2,"Nigiri":false}]}`,
		`{"pairs":[{"Black":1,"White":2,"Nigiri":false}],"round":4}`,
		`{ "round" : 2 , "pairs" : [ { "White" : 2 , "Black" : 1 } ] }`,
		`{"Round":2,"pairs":null}`,
		`{"round":02,"pairs":[{"black":1}]}`,
		`{"round":1.0,"pairs":[{"Black":1e1}]}`,
		`{"round":1,"round":2}`,
		`{"bye":0,"pairs":[],"round":1,"seed":4564750088046094962}`,
		`{"bye":0,"pairs":[],"round":1,"seed":-9223372036854775808}`,
		`{"bye":0,"pairs":[],"round":1,"seed":9223372036854775808}`,
		`{"bye":0,"pairs":[],"round":-0,"seed":-9223372036854775809}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, b []byte, playoff bool) {
		round, pairs, ok := quickPairing(b, playoff, nil)
		if !ok {
			return // encoding/json decides
		}
		var wantRound int
		var wantPairs []tournaments.Pairing
		var err error
		if playoff {
			var v tournaments.PlayoffPairedPayload
			err = json.Unmarshal(b, &v)
			wantRound, wantPairs = v.Round, v.Pairs
		} else {
			var v tournaments.RoundPairedPayload
			err = json.Unmarshal(b, &v)
			wantRound, wantPairs = v.Round, v.Pairs
		}
		if err != nil {
			t.Fatalf("%q: the hand decoder accepted what encoding/json refuses: %v", b, err)
		}
		if round != wantRound || !reflect.DeepEqual(pairs, wantPairs) {
			t.Fatalf("%q: round %d pairs %v, encoding/json %d %v", b, round, pairs, wantRound, wantPairs)
		}
	})
}

// TestReadPairingByHand: the payloads as the tournaments service writes
// them take the hand decoder (not encoding/json's fallback).
func TestReadPairingByHand(t *testing.T) {
	prs := []tournaments.Pairing{{Black: 1, White: 2}, {Black: 14, White: 3, Nigiri: true}}
	for _, c := range []struct {
		v       any
		playoff bool
	}{
		{tournaments.RoundPairedPayload{Bye: 5, Pairs: prs, Round: 3, Seed: 4564750088046094962}, false},
		{tournaments.RoundPairedPayload{Pairs: prs, Round: 3, Seed: math.MinInt64}, false},
		{tournaments.RoundPairedPayload{Pairs: prs, Round: 2, Together: prs[:1]}, false},
		{tournaments.PlayoffPairedPayload{Pairs: prs, Round: 6}, true},
	} {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		round, pairs, ok := quickPairing(b, c.playoff, nil)
		if !ok || !reflect.DeepEqual(pairs, prs) || (round != 3 && round != 2 && round != 6) {
			t.Errorf("%s: %d %v %v", b, round, pairs, ok)
		}
	}
}
