package certs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// EarningRule is one of an event's published grading rules that applies
// to a player: a placing of at most MaxPlacing, or at least MinWins wins
// (in Group, when named), earns Rank. ZH and EN word it as the event's
// page does (the events' package words its rules; certs only quotes them).
type EarningRule struct {
	MaxPlacing int
	MinWins    int
	Group      string
	Rank       registry.Rank
	ZH, EN     string
}

// Text words a rule in a language.
func (r EarningRule) Text(lang ledger.Lang) string {
	if lang == ledger.Chinese {
		return r.ZH
	}
	return r.EN
}

// EventRecord is the registry's statement of a player's result in one of
// its events (played in the registry, or imported from its file with
// results): the evidence of a tournament, 6-dan or 7-dan application.
type EventRecord struct {
	Exists      bool
	EventName   string
	Start       time.Time
	Finished    bool // finished, or imported with its results
	Imported    bool
	Participant bool // a registered player of the event's field
	Placing     int
	Wins        int
	Games       int
	Group       string
	GroupRank   registry.Rank
	GroupMin    int
	// RulesHold: the event's grading rules were published before it
	// started (or, given at import, accepted by staff); Rules are those
	// that apply to the player, Earned the highest rank they earn him.
	RulesHold bool
	Rules     []EarningRule
	Earned    registry.Rank
}

// EventEvidence reads the registry's events for certification; the
// tournaments package supplies it through an adapter wired at the entry
// point (certs does not import tournaments). An unknown event is a record
// with Exists false, not an error.
type EventEvidence interface {
	PlayerRecord(ctx context.Context, q ledger.Querier, eventID, playerID int64) (EventRecord, error)
}

// QueuedEvidence is EventEvidence that can send its first read with the
// caller's: finish, called once b is sent in the transaction q (before
// anything else of the event is read), gives the record.
type QueuedEvidence interface {
	QueuePlayerRecord(b *pgx.Batch, eventID, playerID int64) (finish func(ctx context.Context, q ledger.Querier) (EventRecord, error))
}

// queueEvidence queues on b the first read of checkEvidence's record (nil
// when there is none to queue: the basis needs no event, or the evidence
// cannot queue); pass the result to checkEvidenceRead.
func (s *Service) queueEvidence(b *pgx.Batch, basis Basis, playerID, eventID int64) func(context.Context, ledger.Querier) (EventRecord, error) {
	qe, ok := s.evidence.(QueuedEvidence)
	if !ok || !NeedsEvent(basis) || eventID <= 0 {
		return nil
	}
	return qe.QueuePlayerRecord(b, eventID, playerID)
}

// WithEventEvidence has e state the events' results that tournament, 6-dan
// and 7-dan applications rest on. Without it such applications are refused
// (EVIDENCE_UNCHECKED): text never satisfies a basis.
func WithEventEvidence(e EventEvidence) Option { return func(s *Service) { s.evidence = e } }

// NeedsEvent reports whether a basis rests on a registry event.
func NeedsEvent(b Basis) bool {
	return b == Tournament || b == NationalResult || b == NationalChampionship
}

// eventRefText and recordRefText are the registry's rendering of the
// record in the applications' event_ref and record_ref columns (kept for
// the readers of those columns and for the applications filed before).
func eventRefText(eventID int64, r EventRecord) string {
	return fmt.Sprintf("%s (tournament %d)", r.EventName, eventID)
}

func recordRefText(r EventRecord) string {
	s := fmt.Sprintf("placing %d, %d wins of %d", r.Placing, r.Wins, r.Games)
	if r.Group != "" {
		s += ", group " + r.Group
	}
	return s
}

// checkEvidence checks the event an application names against its basis
// and target rank, and returns the registry's record of the player there.
func (s *Service) checkEvidence(ctx context.Context, q ledger.Querier, basis Basis, target registry.Rank, playerID, eventID int64) (EventRecord, error) {
	return s.checkEvidenceRead(ctx, q, basis, target, playerID, eventID, nil)
}

// checkEvidenceRead is checkEvidence finishing the read queueEvidence
// queued (nil: read all now).
func (s *Service) checkEvidenceRead(ctx context.Context, q ledger.Querier, basis Basis, target registry.Rank, playerID, eventID int64,
	queued func(context.Context, ledger.Querier) (EventRecord, error)) (EventRecord, error) {
	ev := strconv.FormatInt(eventID, 10)
	if eventID <= 0 {
		return EventRecord{}, ReasonEvidenceEventRequired.OnField("event_id")
	}
	if s.evidence == nil {
		return EventRecord{}, ReasonEvidenceUnchecked.OnField("event_id")
	}
	var (
		r   EventRecord
		err error
	)
	if queued != nil {
		r, err = queued(ctx, q)
	} else {
		r, err = s.evidence.PlayerRecord(ctx, q, eventID, playerID)
	}
	if err != nil {
		return EventRecord{}, err
	}
	switch {
	case !r.Exists:
		return r, ReasonEvidenceNoSuchEvent.OnField("event_id", "event", ev)
	case !r.Finished:
		return r, ReasonEvidenceNotFinished.OnField("event_id", "event", ev, "name", r.EventName)
	case !r.Participant:
		return r, ReasonEvidenceNotAParticipant.OnField("event_id", "event", ev, "name", r.EventName, "player", strconv.FormatInt(playerID, 10))
	}
	result := []ledger.Param{ledger.Value("event", ev), ledger.Value("name", r.EventName), ledger.Value("placing", strconv.Itoa(r.Placing)),
		ledger.Value("wins", strconv.Itoa(r.Wins)), ledger.Value("games", strconv.Itoa(r.Games))}
	switch basis {
	case Tournament:
		if !r.RulesHold {
			return r, ReasonEvidenceRulesNotPublished.FieldWith("event_id", result[:2]...)
		}
		if r.Earned == registry.NoRank || target.Outranks(r.Earned) {
			var zh, en []string
			for _, rule := range r.Rules {
				if !target.Outranks(rule.Rank) {
					zh, en = append(zh, rule.Text(ledger.Chinese)), append(en, rule.Text(ledger.English))
				}
			}
			needed := ledger.Words("needed", strings.Join(zh, "，或"), strings.Join(en, ", or "))
			if len(zh) == 0 {
				needed = ledger.Words("needed", "本次比赛的规则不授予该段级位", "no rule of the event earns it")
			}
			earned := ledger.Words("earned", "无", "none")
			if r.Earned != registry.NoRank {
				earned = ledger.Words("earned", r.Earned.Chinese(), r.Earned.String())
			}
			return r, ReasonEvidenceBelowRule.FieldWith("event_id", append(result,
				ledger.Words("target", target.Chinese(), target.String()), earned, needed)...)
		}
	case NationalResult, NationalChampionship:
		n, listed, err := nationalEvent(ctx, q, eventID)
		if err != nil {
			return r, err
		}
		if !listed {
			return r, ReasonEvidenceNotNational.FieldWith("event_id", result[:2]...)
		}
		if basis == NationalResult && (r.Placing < 1 || r.Placing > n.MaxPlacing) {
			return r, ReasonEvidenceNationalPlacing.FieldWith("event_id", append(result, ledger.Value("needed", strconv.Itoa(n.MaxPlacing)))...)
		}
		if basis == NationalChampionship {
			if !n.Championship {
				return r, ReasonEvidenceNotChampionship.FieldWith("event_id", result[:2]...)
			}
			if r.Placing != 1 {
				return r, ReasonEvidenceNotChampion.FieldWith("event_id", result...)
			}
			var id int64
			err := q.QueryRow(ctx, `SELECT id FROM champion_recognitions WHERE event_id = $1 AND player_id = $2`, eventID, playerID).Scan(&id)
			if errors.Is(err, pgx.ErrNoRows) {
				return r, ReasonEvidenceRecognitionRequired.FieldWith("event_id", append(result[:2:2], ledger.Value("player", strconv.FormatInt(playerID, 10)))...)
			}
			if err != nil {
				return r, ledger.PgErr(err, "champion recognition")
			}
		}
	}
	return r, nil
}

// EvidenceCheck is a re-check today of what a certificate's or an
// application's evidence says: Holds, or the refusal Err its basis would
// meet now (after a result was voided or corrected, the event unlisted …).
type EvidenceCheck struct {
	ApplicationID int64
	Basis         Basis
	EventID       int64
	Holds         bool
	Err           error
}

// RecheckEvidence checks again, today, the evidence of an application (and
// so of the certificate it led to): the audit's indicator of certificates
// whose evidence no longer holds calls it. Applications on an appraisal
// basis hold here (the appraisal stream checks its sessions); applications
// filed before structured evidence (no event) do not hold.
func (s *Service) RecheckEvidence(ctx context.Context, q ledger.Querier, applicationID int64) (EvidenceCheck, error) {
	var c EvidenceCheck
	var eventID *int64
	var playerID int64
	var target registry.Rank
	err := q.QueryRow(ctx, `SELECT basis, event_id, player_id, target_rank FROM applications WHERE id = $1`, applicationID).
		Scan(&c.Basis, &eventID, &playerID, &target)
	if err != nil {
		return c, ledger.RowErr(err, fmt.Sprintf("application %d", applicationID), ReasonNoSuchApplication.New("application", appID(applicationID)))
	}
	c.ApplicationID = applicationID
	if eventID != nil {
		c.EventID = *eventID
	}
	if !NeedsEvent(c.Basis) {
		c.Holds = true
		return c, nil
	}
	_, err = s.checkEvidence(ctx, q, c.Basis, target, playerID, c.EventID)
	if err != nil && ledger.KindOf(err) == ledger.Internal {
		return c, err
	}
	c.Holds, c.Err = err == nil, err
	return c, nil
}

// NationalEvent is an event on the association's list of nationally
// recognised events: a placing of MaxPlacing or better earns 6 dan, and a
// Championship's champion may be recognised 7 dan.
type NationalEvent struct {
	EventID      int64
	EventName    string
	MaxPlacing   int
	Championship bool
	Note         string
	AddedAt      time.Time
	AddedBy      string
}

// NationalEventInput lists (or changes the listing of) an event.
type NationalEventInput struct {
	EventID      int64
	MaxPlacing   int
	Championship bool
	Note         string
}

// MaxNationalPlacing bounds the placings that earn 6 dan.
const MaxNationalPlacing = 64

func nationalEvent(ctx context.Context, q ledger.Querier, eventID int64) (NationalEvent, bool, error) {
	var n NationalEvent
	err := q.QueryRow(ctx, `SELECT event_id, event_name, max_placing, championship, note, added_at, added_by FROM national_events WHERE event_id = $1`, eventID).
		Scan(&n.EventID, &n.EventName, &n.MaxPlacing, &n.Championship, &n.Note, &n.AddedAt, &n.AddedBy)
	if errors.Is(err, pgx.ErrNoRows) {
		return n, false, nil
	}
	if err != nil {
		return n, false, ledger.PgErr(err, "national event")
	}
	return n, true, nil
}

// ListNationalEvent puts an event on the list of nationally recognised
// events, or changes its earning placings or championship flag (staff).
func (s *Service) ListNationalEvent(ctx context.Context, actor ledger.Actor, key string, in NationalEventInput) (NationalEvent, error) {
	if err := s.requireStaff(ctx, actor, access.KeepNationalList); err != nil {
		return NationalEvent{}, err
	}
	note, err := ledger.OptionalText("note", in.Note, maxReason)
	if err != nil {
		return NationalEvent{}, err
	}
	in.Note = note
	if in.MaxPlacing < 1 || in.MaxPlacing > MaxNationalPlacing {
		return NationalEvent{}, ledger.ReasonOutOfRange.OnField("max_placing", "min", "1", "max", strconv.Itoa(MaxNationalPlacing))
	}
	return ledger.Mutate(ctx, s.store, actor, key, "ListNationalEvent", in, func(tx *ledger.Tx, now time.Time) (NationalEvent, error) {
		if s.evidence == nil {
			return NationalEvent{}, ReasonEvidenceUnchecked.OnField("event_id")
		}
		r, err := s.evidence.PlayerRecord(ctx, tx, in.EventID, 0)
		if err != nil {
			return NationalEvent{}, err
		}
		if !r.Exists {
			return NationalEvent{}, ReasonEvidenceNoSuchEvent.OnField("event_id", "event", strconv.FormatInt(in.EventID, 10))
		}
		n := NationalEvent{EventID: in.EventID, EventName: r.EventName, MaxPlacing: in.MaxPlacing, Championship: in.Championship,
			Note: in.Note, AddedAt: now, AddedBy: actor.String()}
		if _, err := tx.Exec(ctx, `INSERT INTO national_events (event_id, event_name, max_placing, championship, note, added_at, added_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (event_id) DO UPDATE SET event_name = EXCLUDED.event_name,
			max_placing = EXCLUDED.max_placing, championship = EXCLUDED.championship, note = EXCLUDED.note,
			added_at = EXCLUDED.added_at, added_by = EXCLUDED.added_by`,
			n.EventID, n.EventName, n.MaxPlacing, n.Championship, n.Note, now, n.AddedBy); err != nil {
			return NationalEvent{}, ledger.PgErr(err, "list national event")
		}
		err = ledger.Append(ctx, tx, now, actor, "national_event", strconv.FormatInt(n.EventID, 10),
			NationalEventListedPayload{Championship: n.Championship, EventID: n.EventID, MaxPlacing: n.MaxPlacing, Name: n.EventName, Note: n.Note})
		return n, err
	})
}

// UnlistNationalEvent takes an event off the list (staff), saying why.
// Applications filed on it are refused at approval from then on.
func (s *Service) UnlistNationalEvent(ctx context.Context, actor ledger.Actor, key string, eventID int64, reason string) error {
	if err := s.requireStaff(ctx, actor, access.KeepNationalList); err != nil {
		return err
	}
	reason, err := ledger.Text("reason", reason, maxReason)
	if err != nil {
		return err
	}
	_, err = ledger.Mutate(ctx, s.store, actor, key, "UnlistNationalEvent", []any{eventID, reason}, func(tx *ledger.Tx, now time.Time) (bool, error) {
		tag, err := tx.Exec(ctx, `DELETE FROM national_events WHERE event_id = $1`, eventID)
		if err != nil {
			return false, ledger.PgErr(err, "unlist national event")
		}
		if tag.RowsAffected() == 0 {
			return false, ReasonNotListed.New("event", strconv.FormatInt(eventID, 10))
		}
		if err := ledger.Append(ctx, tx, now, actor, "national_event", strconv.FormatInt(eventID, 10),
			NationalEventUnlistedPayload{EventID: eventID, Reason: reason}); err != nil {
			return false, err
		}
		// the 6 and 7 dan resting on the listing are checked again
		_, err = s.RecheckEventTx(ctx, tx, now, actor, eventID, reason)
		return err == nil, err
	})
	return err
}

// NationalEvents lists the nationally recognised events, newest first.
func (s *Service) NationalEvents(ctx context.Context) ([]NationalEvent, error) {
	rows, err := s.db.Query(ctx, `SELECT event_id, event_name, max_placing, championship, note, added_at, added_by FROM national_events
		ORDER BY added_at DESC, event_id DESC LIMIT 500`)
	if err != nil {
		return nil, fmt.Errorf("national events: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (NationalEvent, error) {
		var n NationalEvent
		err := r.Scan(&n.EventID, &n.EventName, &n.MaxPlacing, &n.Championship, &n.Note, &n.AddedAt, &n.AddedBy)
		return n, err
	})
}

// Recognition is staff's special recognition (特别认定) of a national
// amateur champion, which a 7-dan application requires.
type Recognition struct {
	ID           int64
	EventID      int64
	PlayerID     int64
	Note         string
	RecognisedAt time.Time
	RecognisedBy string
}

// RecognizeChampion records staff's special recognition of the champion
// (placing 1) of a listed national amateur championship.
func (s *Service) RecognizeChampion(ctx context.Context, actor ledger.Actor, key string, eventID, playerID int64, note string) (Recognition, error) {
	if err := s.requireStaff(ctx, actor, access.KeepNationalList); err != nil {
		return Recognition{}, err
	}
	note, err := ledger.Text("note", note, maxReason)
	if err != nil {
		return Recognition{}, err
	}
	return ledger.Mutate(ctx, s.store, actor, key, "RecognizeChampion", []any{eventID, playerID, note}, func(tx *ledger.Tx, now time.Time) (Recognition, error) {
		ev := strconv.FormatInt(eventID, 10)
		n, listed, err := nationalEvent(ctx, tx, eventID)
		if err != nil {
			return Recognition{}, err
		}
		if !listed || !n.Championship {
			return Recognition{}, ReasonEvidenceNotChampionship.OnField("event_id", "event", ev, "name", n.EventName)
		}
		if s.evidence == nil {
			return Recognition{}, ReasonEvidenceUnchecked.OnField("event_id")
		}
		r, err := s.evidence.PlayerRecord(ctx, tx, eventID, playerID)
		if err != nil {
			return Recognition{}, err
		}
		switch {
		case !r.Finished:
			return Recognition{}, ReasonEvidenceNotFinished.OnField("event_id", "event", ev, "name", r.EventName)
		case !r.Participant:
			return Recognition{}, ReasonEvidenceNotAParticipant.OnField("player_id", "event", ev, "name", r.EventName, "player", strconv.FormatInt(playerID, 10))
		case r.Placing != 1:
			return Recognition{}, ReasonEvidenceNotChampion.OnField("player_id", "event", ev, "name", r.EventName, "placing", strconv.Itoa(r.Placing),
				"wins", strconv.Itoa(r.Wins), "games", strconv.Itoa(r.Games))
		}
		rec := Recognition{EventID: eventID, PlayerID: playerID, Note: note, RecognisedAt: now, RecognisedBy: actor.String()}
		err = tx.QueryRow(ctx, `INSERT INTO champion_recognitions (event_id, player_id, note, recognised_at, recognised_by) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (event_id, player_id) DO NOTHING RETURNING id`, eventID, playerID, note, now, rec.RecognisedBy).Scan(&rec.ID)
		if errors.Is(err, pgx.ErrNoRows) {
			return Recognition{}, ReasonAlreadyRecognised.New("event", ev, "player", strconv.FormatInt(playerID, 10))
		}
		if err != nil {
			return Recognition{}, ledger.PgErr(err, "recognise champion")
		}
		err = ledger.Append(ctx, tx, now, actor, "player", strconv.FormatInt(playerID, 10),
			ChampionRecognisedPayload{EventID: eventID, Note: note, RecognitionID: rec.ID})
		return rec, err
	})
}

// Recognitions lists the special recognitions of champions, newest first.
func (s *Service) Recognitions(ctx context.Context) ([]Recognition, error) {
	rows, err := s.db.Query(ctx, `SELECT id, event_id, player_id, note, recognised_at, recognised_by FROM champion_recognitions ORDER BY id DESC LIMIT 500`)
	if err != nil {
		return nil, fmt.Errorf("champion recognitions: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Recognition, error) {
		var c Recognition
		err := r.Scan(&c.ID, &c.EventID, &c.PlayerID, &c.Note, &c.RecognisedAt, &c.RecognisedBy)
		return c, err
	})
}
