package audit

import "github.com/dankyu/dankyu/ledger"

// The events' payloads: one type per action, whose JSON tags are the keys
// of the log's rows. The fields stand in the order of their keys, as the
// maps these types replace wrote them, so that a row encodes byte for byte
// as before; a key written only at times is omitempty.

// Payloads are the payload types of the audit's actions, one value of each
// (internal/archtest checks the log's readers against them).
func Payloads() []ledger.Payload {
	return []ledger.Payload{
		OpenedPayload{}, FindingOpenedPayload{}, FindingConfirmedPayload{}, FindingDismissedPayload{}, FindingRepliedPayload{},
		RuledPayload{}, BootstrappedPayload{}, PreviewedPayload{}, AppealedPayload{}, AppealDecidedPayload{}, YearPublishedPayload{},
	}
}

// OpenedPayload is audit.opened's payload: a year's audit opened, its
// scorecards frozen at the log's position.
type OpenedPayload struct {
	Agencies    []string `json:"agencies"`
	PeriodEnd   string   `json:"period_end"`   // RFC 3339
	PeriodStart string   `json:"period_start"` // RFC 3339
	Position    int64    `json:"position"`
	Red         int      `json:"red"` // red marks, each an open finding
	// SupersededPreview is the position of the year's preview this opening
	// replaced (0: none).
	SupersededPreview int64 `json:"superseded_preview,omitempty"`
}

func (OpenedPayload) Action() string { return "audit.opened" }

// PreviewedPayload is audit.previewed's payload: a running year's
// scorecards computed up to today, labelled a preview; no findings.
type PreviewedPayload struct {
	Agencies    []string `json:"agencies"`
	PeriodEnd   string   `json:"period_end"`   // RFC 3339: the preview's time
	PeriodStart string   `json:"period_start"` // RFC 3339
	Position    int64    `json:"position"`
	Red         int      `json:"red"` // red marks (no findings)
}

func (PreviewedPayload) Action() string { return "audit.previewed" }

// AppealedPayload is audit.appealed's payload: the agency's appeal (复议).
type AppealedPayload struct {
	Agency string `json:"agency"`
	Reason string `json:"reason"`
	Year   int    `json:"year"`
}

func (AppealedPayload) Action() string { return "audit.appealed" }

// AppealDecidedPayload is audit.appeal_decided's payload: staff upheld the
// ruling or changed it to the one given.
type AppealDecidedPayload struct {
	Agency               string       `json:"agency"`
	DanCap               *int         `json:"dan_cap"`
	KyuCap               *int         `json:"kyu_cap"`
	Measures             string       `json:"measures"`
	Note                 string       `json:"note"`
	Outcome              Outcome      `json:"outcome"` // the ruling in force after the decision
	StaffApprovesHighDan bool         `json:"staff_approves_high_dan"`
	Status               AppealStatus `json:"status"`                      // upheld or changed
	SupervisionUntil     string       `json:"supervision_until,omitempty"` // YYYY-MM-DD
	Year                 int          `json:"year"`
}

func (AppealDecidedPayload) Action() string { return "audit.appeal_decided" }

// YearPublishedPayload is audit.year_published's payload: the year closed
// and its outcomes published (通报).
type YearPublishedPayload struct {
	Early    bool               `json:"early"` // published before every ruling was final
	Note     string             `json:"note"`
	Outcomes map[string]Outcome `json:"outcomes"` // agency → outcome
	Year     int                `json:"year"`
}

func (YearPublishedPayload) Action() string { return "audit.year_published" }

// FindingOpenedPayload is audit.finding_opened's payload.
type FindingOpenedPayload struct {
	Agency    string   `json:"agency"`
	Category  Family   `json:"category"`
	Evidence  string   `json:"evidence"`
	Indicator string   `json:"indicator"`
	Severity  Severity `json:"severity"`
	Year      int      `json:"year"`
}

func (FindingOpenedPayload) Action() string { return "audit.finding_opened" }

// FindingConfirmedPayload is audit.finding_confirmed's payload.
type FindingConfirmedPayload struct {
	Agency string `json:"agency"`
	Note   string `json:"note"`
	Year   int    `json:"year"`
}

func (FindingConfirmedPayload) Action() string { return "audit.finding_confirmed" }

// FindingDismissedPayload is audit.finding_dismissed's payload.
type FindingDismissedPayload FindingConfirmedPayload

func (FindingDismissedPayload) Action() string { return "audit.finding_dismissed" }

// FindingRepliedPayload is audit.finding_replied's payload.
type FindingRepliedPayload struct {
	Agency string `json:"agency"`
	Reply  string `json:"reply"`
	Year   int    `json:"year"`
}

func (FindingRepliedPayload) Action() string { return "audit.finding_replied" }

// RuledPayload is audit.ruled's payload.
type RuledPayload struct {
	DanCap               *int    `json:"dan_cap"`
	KyuCap               *int    `json:"kyu_cap"`
	Measures             string  `json:"measures"`
	Note                 string  `json:"note"`
	Outcome              Outcome `json:"outcome"`
	ReplyUntil           string  `json:"reply_until,omitempty"` // RFC 3339: the end of the reply period
	StaffApprovesHighDan bool    `json:"staff_approves_high_dan"`
	SupervisionUntil     string  `json:"supervision_until,omitempty"` // YYYY-MM-DD
}

func (RuledPayload) Action() string { return "audit.ruled" }

// BootstrappedPayload is audit.bootstrapped's payload.
type BootstrappedPayload struct {
	Note      string `json:"note"`
	StockYear int    `json:"stock_year"`
}

func (BootstrappedPayload) Action() string { return "audit.bootstrapped" }
