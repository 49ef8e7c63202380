package book

import "github.com/dankyu/dankyu/ledger"

// The events' payloads: one type per action, whose JSON tags are the keys
// of the log's rows (in the order of their keys, as the maps they replace
// wrote them, so that a row encodes byte for byte as before).

// Payloads are the payload types of the ratings book's actions, one value
// of each (internal/archtest checks the log's readers against them).
func Payloads() []ledger.Payload {
	return []ledger.Payload{UpdatedPayload{}, RecomputedPayload{}, TunedPayload{}}
}

// UpdatedPayload is ratings.updated's payload: a finished event rated.
type UpdatedPayload struct {
	Games   int   `json:"games"`
	Players int   `json:"players"`
	Run     int64 `json:"run"`
}

func (UpdatedPayload) Action() string { return "ratings.updated" }

// RecomputedPayload is ratings.recomputed's payload: every rating rebuilt.
type RecomputedPayload struct {
	Events  int `json:"events"`
	Games   int `json:"games"`
	Players int `json:"players"`
}

func (RecomputedPayload) Action() string { return "ratings.recomputed" }

// TunedPayload is ratings.tuned's payload: the registry's parameters tuned
// on its own games, stored as a new version, every rating recomputed.
type TunedPayload struct {
	Version         int64   `json:"version"`
	TrainGames      int     `json:"train_games"`
	EvalGames       int     `json:"eval_games"`
	DefaultLogLoss  float64 `json:"default_logloss"`
	TunedLogLoss    float64 `json:"tuned_logloss"`
	RankOnlyLogLoss float64 `json:"rankonly_logloss"`
	SD0             float64 `json:"sd0"`
	Drift           float64 `json:"drift"`
	Play            float64 `json:"play"`
	RankSD          float64 `json:"rank_sd"`
	Width           float64 `json:"width"`
	Span            float64 `json:"span"`
	Learn           float64 `json:"learn"`
	Kyu             float64 `json:"kyu"`
}

func (TunedPayload) Action() string { return "ratings.tuned" }
