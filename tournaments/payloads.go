package tournaments

import "github.com/dankyu/dankyu/ledger"

// The events' payloads: one type per action, whose JSON tags are the keys
// of the log's rows. The service appends them and the bulk loads write the
// same rows. The fields stand in the order of their keys, as the maps these
// types replace wrote them, so that a row encodes byte for byte as before;
// a key the service wrote only at times is omitempty (a pointer where its
// zero value was written too).

// Payloads are the payload types of the tournaments' actions, one value of
// each (internal/archtest checks the log's readers against them).
func Payloads() []ledger.Payload {
	return []ledger.Payload{
		CreatedPayload{}, ImportedPayload{}, ParticipantAddedPayload{}, WithdrawalPayload{}, BoardSetPayload{}, BoardsOrderedPayload{},
		LineupPayload{}, RoundPairedPayload{}, PlayoffPairedPayload{}, NigiriPayload{}, ResultPayload{}, ResultVoidedPayload{},
		RoundConfirmedPayload{}, ProtestLodgedPayload{}, ProtestRuledPayload{}, FinishedPayload{}, ProposalsRecordedPayload{},
		PlayerSuspendedPayload{}, ParticipantsMovedPayload{}, GradingSetPayload{}, GradingAcceptedPayload{},
		PlayersMatchedPayload{}, ConductSetPayload{}, AdjournedPayload{}, LatenessPayload{},
		WarningGivenPayload{}, SanctionedPayload{}, RoundsAddedPayload{}, PairingConstraintSetPayload{},
	}
}

// CreatedPayload is tournament.created's payload.
type CreatedPayload struct {
	DanGrade bool   `json:"dan_grade"`
	Level    Level  `json:"level"`
	Name     string `json:"name"`
	Rounds   int    `json:"rounds"`
	Seed     int64  `json:"seed"`
	Source   string `json:"source"`
	System   System `json:"system"`
	// Grading is the grading table published with the event (omitted
	// when it has none, as every event created before had).
	Grading []GradingRuleLogged `json:"grading,omitempty"`
}

func (CreatedPayload) Action() string { return "tournament.created" }

// NewCreatedPayload is tournament.created's payload for e.
func NewCreatedPayload(e Event) CreatedPayload {
	return CreatedPayload{DanGrade: e.DanGrade, Level: e.Level, Name: e.Name, Rounds: e.Rounds, Seed: e.Seed, Source: e.Source, System: e.System, Grading: loggedRules(e.Grading)}
}

// ImportedPayload is tournament.imported's payload: an event read from a file.
type ImportedPayload struct {
	Format  string `json:"format"`
	Games   int    `json:"games"`
	Players int    `json:"players"`
	Rounds  int    `json:"rounds"`
}

func (ImportedPayload) Action() string { return "tournament.imported" }

// PlayersMatchedPayload is tournament.players_matched's payload: how an
// import matched each of its registered participants — by a stable id
// ("egd_pin", "identity", "registry_number", a scheme), by agreeing facts
// ("facts"), or by the clerk's confirmation ("confirmed", with the
// candidates the import had proposed).
type PlayersMatchedPayload struct {
	Players []MatchedPlayer `json:"players"`
}

func (PlayersMatchedPayload) Action() string { return "tournament.players_matched" }

// MatchedPlayer is one participant of PlayersMatchedPayload.
type MatchedPlayer struct {
	Basis      string  `json:"basis"`
	Candidates []int64 `json:"candidates"`
	FileName   string  `json:"file_name"`
	FilePin    string  `json:"file_pin"`
	Number     int     `json:"number"`
	Player     int64   `json:"player"`
}

// ParticipantAddedPayload is tournament.participant_added's payload.
type ParticipantAddedPayload struct {
	Name     string `json:"name"`
	Number   int    `json:"number"`
	PlayerID int64  `json:"player_id"` // 0: a guest
	Rank     string `json:"rank"`
}

func (ParticipantAddedPayload) Action() string { return "tournament.participant_added" }

// NewParticipantAddedPayload is tournament.participant_added's payload for p.
func NewParticipantAddedPayload(p Participant) ParticipantAddedPayload {
	return ParticipantAddedPayload{Name: p.Name, Number: p.Number, PlayerID: p.PlayerID, Rank: p.Rank.String()}
}

// WithdrawalPayload is tournament.withdrawal's payload. In a team event the
// member's unplayed game of the current round is forfeited with it.
type WithdrawalPayload struct {
	AfterRound int `json:"after_round"`
	Number     int `json:"number"`
}

func (WithdrawalPayload) Action() string { return "tournament.withdrawal" }

// BoardSetPayload is tournament.board_set's payload.
type BoardSetPayload struct {
	Board  int `json:"board"`
	Number int `json:"number"`
}

func (BoardSetPayload) Action() string { return "tournament.board_set" }

// BoardsOrderedPayload is tournament.boards_ordered's payload: each team's
// participants in board order.
type BoardsOrderedPayload struct {
	Boards map[string][]int `json:"boards"`
	By     string           `json:"by"`
}

func (BoardsOrderedPayload) Action() string { return "tournament.boards_ordered" }

// LineupPayload is tournament.lineup's payload.
type LineupPayload struct {
	Boards []int  `json:"boards"` // participant numbers, board 1 first
	Round  int    `json:"round"`
	Team   string `json:"team"`
}

func (LineupPayload) Action() string { return "tournament.lineup" }

// RoundPairedPayload is tournament.round_paired's payload: board i+1 is Pairs[i].
type RoundPairedPayload struct {
	Bye   int       `json:"bye"` // 0: none
	Pairs []Pairing `json:"pairs"`
	Round int       `json:"round"`
	Seed  int64     `json:"seed"`
	// Together are the pairs the event's pairing constraint could not keep
	// apart (same club, school or family); absent when none.
	Together []Pairing `json:"together,omitempty"`
}

func withTogether(p RoundPairedPayload, together []Pairing) RoundPairedPayload {
	p.Together = together
	return p
}

func (RoundPairedPayload) Action() string { return "tournament.round_paired" }

// NewRoundPairedPayload is tournament.round_paired's payload.
func NewRoundPairedPayload(r BulkRound, pairs []Pairing) RoundPairedPayload {
	return RoundPairedPayload{Bye: r.Bye, Pairs: pairs, Round: r.Round, Seed: r.Seed}
}

// PlayoffPairedPayload is tournament.playoff_paired's payload: board i+1 is Pairs[i].
type PlayoffPairedPayload struct {
	Pairs []Pairing `json:"pairs"`
	Round int       `json:"round"`
}

func (PlayoffPairedPayload) Action() string { return "tournament.playoff_paired" }

// NigiriPayload is tournament.nigiri's payload: the colours drawn, Black
// the participant who takes black (the other takes white).
type NigiriPayload struct {
	Black  int    `json:"black"`
	Board  int    `json:"board"`
	Guess  string `json:"guess"`
	Holder int    `json:"holder"`
	Round  int    `json:"round"`
	Stones int    `json:"stones"`
}

func (NigiriPayload) Action() string { return "tournament.nigiri" }

// ResultPayload is tournament.result's payload.
type ResultPayload struct {
	Adjudicated string `json:"adjudicated"`
	Board       int    `json:"board"`
	// ColoursSwappedNoticedAt and WrongColours: the players took each
	// other's colours (set only then).
	ColoursSwappedNoticedAt *int `json:"colours_swapped_noticed_at,omitempty"`
	// FlagCode and FlagParams say why the game is flagged (FlagMessage
	// words them); set only then, and not in results from before codes.
	FlagCode      string            `json:"flag_code,omitempty"`
	FlagParams    map[string]string `json:"flag_params,omitempty"`
	Flagged       bool              `json:"flagged"`
	ForfeitReason ForfeitReason     `json:"forfeit_reason,omitempty"`
	Record        bool              `json:"record"`
	// Reported is the result reported when two warnings decided another.
	Reported     *Result `json:"reported,omitempty"`
	Result       Result  `json:"result"`
	Round        int     `json:"round"`
	Warnings     [2]int  `json:"warnings"` // black's and white's
	WrongColours *bool   `json:"wrong_colours,omitempty"`
}

func (ResultPayload) Action() string { return "tournament.result" }

// NewResultPayload is tournament.result's payload for a game as recorded.
func NewResultPayload(g GameRow) ResultPayload {
	p := ResultPayload{Adjudicated: g.Adjudicated, Board: g.Board, Flagged: g.Flagged, Record: g.Record != "", Result: g.Result,
		Round: g.Round, Warnings: [2]int{g.BlackWarnings, g.WhiteWarnings}}
	if g.Flagged && g.FlagCode != "" {
		p.FlagCode, p.FlagParams = g.FlagCode, g.FlagParams
	}
	return p
}

// ResultVoidedPayload is tournament.result_voided's payload: Result is the
// game's result after the void of Side, Reason why, VoidedBy who (also the
// event's actor, kept here so the record reads alone). Confirmed says the
// void overturned a result the chief referee had confirmed (ConfirmedBy),
// which only staff may and the audit counts.
type ResultVoidedPayload struct {
	Board       int      `json:"board"`
	Confirmed   bool     `json:"confirmed,omitempty"`
	ConfirmedBy string   `json:"confirmed_by,omitempty"`
	Reason      string   `json:"reason"`
	Result      Result   `json:"result"`
	Round       int      `json:"round"`
	Side        VoidSide `json:"side"`
	VoidedBy    string   `json:"voided_by,omitempty"`
	Was         Result   `json:"was"`
}

func (ResultVoidedPayload) Action() string { return "tournament.result_voided" }

// RoundConfirmedPayload is tournament.round_confirmed's payload.
type RoundConfirmedPayload struct {
	ChiefReferee string `json:"chief_referee"`
	Games        int64  `json:"games"`
	Round        int    `json:"round"`
}

func (RoundConfirmedPayload) Action() string { return "tournament.round_confirmed" }

// ProtestLodgedPayload is tournament.protest_lodged's payload.
type ProtestLodgedPayload struct {
	Board   int    `json:"board"`
	Number  int    `json:"number"`
	Protest int64  `json:"protest"`
	Reason  string `json:"reason"`
	Round   int    `json:"round"`
}

func (ProtestLodgedPayload) Action() string { return "tournament.protest_lodged" }

// ProtestRuledPayload is tournament.protest_ruled's payload.
type ProtestRuledPayload struct {
	Protest int64  `json:"protest"`
	Ruling  string `json:"ruling"`
	Status  string `json:"status"` // upheld or dismissed
}

func (ProtestRuledPayload) Action() string { return "tournament.protest_ruled" }

// FinishedPayload is tournament.finished's payload; an arena event's also
// names the winning team ("" and Level when level).
type FinishedPayload struct {
	Level  *bool   `json:"level,omitempty"`
	Rounds int     `json:"rounds"`
	Winner *string `json:"winner,omitempty"`
}

func (FinishedPayload) Action() string { return "tournament.finished" }

// GradingSetPayload is tournament.grading_set's payload: the organiser
// replaced the grading table before the event started.
type GradingSetPayload struct {
	Rules []GradingRuleLogged `json:"rules"`
}

func (GradingSetPayload) Action() string { return "tournament.grading_set" }

// GradingAcceptedPayload is tournament.grading_accepted's payload: staff
// accepted the grading rules given with an imported event.
type GradingAcceptedPayload struct {
	Note string `json:"note"`
}

func (GradingAcceptedPayload) Action() string { return "tournament.grading_accepted" }

// ProposalsRecordedPayload is tournament.proposals_recorded's payload.
type ProposalsRecordedPayload struct {
	Filed int `json:"filed"`
}

func (ProposalsRecordedPayload) Action() string { return "tournament.proposals_recorded" }

// PlayerSuspendedPayload is player.suspended's payload.
type PlayerSuspendedPayload struct {
	From       string `json:"from"` // YYYY-MM-DD, inclusive
	Reason     string `json:"reason"`
	Suspension int64  `json:"suspension"`
	To         string `json:"to"`
	Tournament int64  `json:"tournament"` // 0: none
}

func (PlayerSuspendedPayload) Action() string { return "player.suspended" }

// ParticipantsMovedPayload is participants.moved's payload: a merged
// record's entries moved to the kept one.
type ParticipantsMovedPayload struct {
	Entries int64 `json:"entries"`
	From    int64 `json:"from"`
}

func (ParticipantsMovedPayload) Action() string { return "participants.moved" }

// ConductSetPayload is tournament.conduct_set's payload: the event's
// supplementary rules as set.
type ConductSetPayload struct {
	BasicMinutes       int    `json:"basic_minutes"`
	ByoyomiKeptMinutes int    `json:"byoyomi_kept_minutes"`
	ByoyomiPeriods     int    `json:"byoyomi_periods"`
	ByoyomiSeconds     int    `json:"byoyomi_seconds"`
	Cycle              string `json:"cycle"`
	Document           string `json:"document"`
	Lateness           string `json:"lateness"`
	Method             string `json:"method"`
	PeriodMinutes      int    `json:"period_minutes"`
	PeriodMoves        int    `json:"period_moves"`
	Sealing            string `json:"sealing"`
}

func (ConductSetPayload) Action() string { return "tournament.conduct_set" }

// AdjournedPayload is tournament.adjourned's payload: a game adjourned with
// its sealed move.
type AdjournedPayload struct {
	Board        int    `json:"board"`
	CountsAsPass bool   `json:"counts_as_pass"`
	MoveNumber   int    `json:"move_number"`
	Point        string `json:"point"`
	Round        int    `json:"round"`
	SealedBy     string `json:"sealed_by"`
	Seq          int    `json:"seq"`
}

func (AdjournedPayload) Action() string { return "tournament.adjourned" }

// LatenessPayload is tournament.lateness's payload: a player late within
// the limit, his time deducted double.
type LatenessPayload struct {
	Board           int    `json:"board"`
	DeductedMinutes int    `json:"deducted_minutes"`
	Limit           int    `json:"limit"`
	Minutes         int    `json:"minutes"`
	Round           int    `json:"round"`
	Side            string `json:"side"`
}

func (LatenessPayload) Action() string { return "tournament.lateness" }

// WarningGivenPayload is tournament.warning_given's payload: a warning with
// its cause, the side's count after it, and the result it changed (the
// second warning loses the game).
type WarningGivenPayload struct {
	Board   int          `json:"board"`
	Cause   WarningCause `json:"cause"`
	Count   int          `json:"count"`
	Note    string       `json:"note"`
	Number  int          `json:"number"`
	Referee string       `json:"referee"`
	Result  *Result      `json:"result,omitempty"`
	Round   int          `json:"round"`
	Warning int64        `json:"warning"`
	Was     *Result      `json:"was,omitempty"`
}

func (WarningGivenPayload) Action() string { return "tournament.warning_given" }

// SanctionedPayload is tournament.sanctioned's payload: a public reprimand
// or prize money one place lower.
type SanctionedPayload struct {
	Kind     SanctionKind `json:"kind"`
	Number   int          `json:"number"`
	Player   int64        `json:"player"`
	Reason   string       `json:"reason"`
	Sanction int64        `json:"sanction"`
}

func (SanctionedPayload) Action() string { return "tournament.sanctioned" }

// RoundsAddedPayload is tournament.rounds_added's payload: a Swiss event's
// rounds changed after creation ("可以根据情况适当增减").
type RoundsAddedPayload struct {
	Rounds int `json:"rounds"`
	Was    int `json:"was"`
}

func (RoundsAddedPayload) Action() string { return "tournament.rounds_added" }

// PairingConstraintSetPayload is tournament.pairing_constraint_set's
// payload: players sharing a club, school or family are not paired in the
// first rounds.
type PairingConstraintSetPayload struct {
	Kinds  []string `json:"kinds"`
	Rounds int      `json:"rounds"`
}

func (PairingConstraintSetPayload) Action() string { return "tournament.pairing_constraint_set" }
