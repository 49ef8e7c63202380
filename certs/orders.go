package certs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/access"
	"github.com/dankyu/dankyu/ledger"
	"github.com/jackc/pgx/v5"
)

// OrderStatus is where an order stands.
type OrderStatus string

const (
	OrderRequested OrderStatus = "requested"
	OrderGranted   OrderStatus = "granted"
	OrderRefused   OrderStatus = "refused"
)

// Order is an agency's order of one year's certificate stock.
type Order struct {
	AgencyPrefix string
	Year         int
	DanCount     int
	KyuCount     int
	Status       OrderStatus
	OrderedAt    time.Time
	OrderedBy    string
	DecidedAt    *time.Time
	DecidedBy    string
	Note         string
}

// OrderInput is an order. An agency orders for itself for next year (Year
// may be left 0); staff may record an order for any agency and year, e.g.
// one received on paper.
type OrderInput struct {
	AgencyPrefix string
	Year         int
	DanCount     int
	KyuCount     int
}

const orderColumns = `agency_prefix, year, dan_count, kyu_count, status, ordered_at, ordered_by, decided_at, coalesce(decided_by, ''), note`

func scanOrder(r pgx.Row) (Order, error) {
	var o Order
	err := r.Scan(&o.AgencyPrefix, &o.Year, &o.DanCount, &o.KyuCount, &o.Status, &o.OrderedAt, &o.OrderedBy, &o.DecidedAt, &o.DecidedBy, &o.Note)
	return o, err
}

// PlaceOrder records an order, or amends one that is not yet decided.
func (s *Service) PlaceOrder(ctx context.Context, actor ledger.Actor, key string, in OrderInput) (Order, error) {
	if err := access.RequireSignedIn(actor, access.OrderStock); err != nil {
		return Order{}, err
	}
	switch {
	case in.DanCount < 0 || in.DanCount > MaxDanSerial:
		return Order{}, ledger.ReasonOutOfRange.OnField("dan_count", "min", "0", "max", strconv.Itoa(MaxDanSerial))
	case in.KyuCount < 0 || in.KyuCount > MaxKyuSerial:
		return Order{}, ledger.ReasonOutOfRange.OnField("kyu_count", "min", "0", "max", strconv.Itoa(MaxKyuSerial))
	case in.DanCount+in.KyuCount == 0:
		return Order{}, ReasonOrderEmpty.OnField("dan_count")
	}
	if actor.Kind == ledger.AgencyActor {
		if in.AgencyPrefix != "" && in.AgencyPrefix != actor.Agency {
			return Order{}, ReasonOrderOtherAgency.New("agency", actor.Agency)
		}
		in.AgencyPrefix = actor.Agency
		// who may order comes before when: a suspended agency hears that first
		if err := s.policy.Require(ctx, s.db, actor, access.OrderStock, in.AgencyPrefix); err != nil {
			return Order{}, err
		}
		year, err := OrderStockYear(s.store.Now())
		if err != nil {
			return Order{}, fmt.Errorf("order certificates: %w", err)
		}
		if in.Year != 0 && in.Year != year {
			return Order{}, ReasonOrderYear.OnField("year", "year", strconv.Itoa(year), "given", strconv.Itoa(in.Year))
		}
		in.Year = year
	} else if in.Year < 2005 || in.Year > 2999 {
		return Order{}, ReasonOrderYearRequired.OnField("year")
	}
	return ledger.Mutate(ctx, s.store, actor, key, "PlaceOrder", in, func(tx *ledger.Tx, now time.Time) (Order, error) {
		if err := s.policy.Require(ctx, tx, actor, access.OrderStock, in.AgencyPrefix); err != nil {
			return Order{}, err
		}
		old, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM certificate_orders
			WHERE agency_prefix = $1 AND year = $2 FOR UPDATE`, in.AgencyPrefix, in.Year))
		amended := false
		switch {
		case err == nil && old.Status != OrderRequested:
			return Order{}, ReasonOrderDecided.With(ledger.Value("year", strconv.Itoa(in.Year)), ledger.Value("agency", in.AgencyPrefix),
				orderStatusWords(old.Status), ledger.Value("date", old.DecidedAt.In(ledger.ChinaTime).Format(time.DateOnly)))
		case err == nil:
			amended = true
		case !errors.Is(err, pgx.ErrNoRows):
			return Order{}, ledger.PgErr(err, "read order")
		}
		o, err := scanOrder(tx.QueryRow(ctx, `INSERT INTO certificate_orders (agency_prefix, year, dan_count, kyu_count, status, ordered_at, ordered_by)
			VALUES ($1, $2, $3, $4, 'requested', $5, $6)
			ON CONFLICT (agency_prefix, year) DO UPDATE SET dan_count = EXCLUDED.dan_count, kyu_count = EXCLUDED.kyu_count,
				ordered_at = EXCLUDED.ordered_at, ordered_by = EXCLUDED.ordered_by
			RETURNING `+orderColumns, in.AgencyPrefix, in.Year, in.DanCount, in.KyuCount, now, actor.String()))
		if err != nil {
			return Order{}, ledger.PgErr(err, "place order")
		}
		var p ledger.Payload = NewOrderPlacedPayload(o)
		if amended {
			p = OrderAmendedPayload(NewOrderPlacedPayload(o))
		}
		err = ledger.Append(ctx, tx, now, actor, "order", OrderEntity(o), p)
		return o, err
	})
}

// OrderDecision is staff's answer to an agency's order.
type OrderDecision struct {
	AgencyPrefix string
	Year         int
	Grant        bool // false refuses
	// DanCount and KyuCount lower a grant; 0 keeps what was ordered.
	DanCount, KyuCount int
	Note               string
}

// maxNote bounds staff's note on an order decision.
const maxNote = 1000

// DecideOrder grants or refuses an order (staff). A grant may lower each
// count and must pass the gate (the audit).
func (s *Service) DecideOrder(ctx context.Context, actor ledger.Actor, key string, d OrderDecision) (Order, error) {
	agency, year, grant, dan, kyu, note := d.AgencyPrefix, d.Year, d.Grant, d.DanCount, d.KyuCount, d.Note
	if err := s.requireStaff(ctx, actor, access.DecideOrder); err != nil {
		return Order{}, err
	}
	if dan < 0 || kyu < 0 {
		return Order{}, ReasonGrantNegative.OnField("dan_count")
	}
	note, err := ledger.OptionalText("note", note, maxNote)
	if err != nil {
		return Order{}, err
	}
	d.Note = note
	return ledger.Mutate(ctx, s.store, actor, key, "DecideOrder", d, func(tx *ledger.Tx, now time.Time) (Order, error) {
		o, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM certificate_orders
			WHERE agency_prefix = $1 AND year = $2 FOR UPDATE`, agency, year))
		if err != nil {
			return Order{}, ledger.RowErr(err, fmt.Sprintf("order of agency %s for %d", agency, year),
				ReasonNoOrder.New("agency", agency, "year", strconv.Itoa(year)))
		}
		if o.Status != OrderRequested {
			return Order{}, ReasonOrderDecided.With(ledger.Value("year", strconv.Itoa(year)), ledger.Value("agency", agency),
				orderStatusWords(o.Status), ledger.Value("date", o.DecidedAt.In(ledger.ChinaTime).Format(time.DateOnly)))
		}
		status := OrderRefused
		if grant {
			status = OrderGranted
			if dan > o.DanCount || kyu > o.KyuCount {
				return Order{}, ReasonGrantExceedsOrder.OnField("dan_count", "dan", strconv.Itoa(o.DanCount), "kyu", strconv.Itoa(o.KyuCount))
			}
			if dan > 0 {
				o.DanCount = dan
			}
			if kyu > 0 {
				o.KyuCount = kyu
			}
			if s.gate != nil {
				if err := s.gate.MayGrant(ctx, tx, agency, year, o.DanCount, o.KyuCount); err != nil {
					return Order{}, fmt.Errorf("grant the %d order of agency %s: %w", year, agency, err)
				}
			}
		}
		o, err = scanOrder(tx.QueryRow(ctx, `UPDATE certificate_orders SET status = $3, dan_count = $4, kyu_count = $5,
			decided_at = $6, decided_by = $7, note = $8 WHERE agency_prefix = $1 AND year = $2 RETURNING `+orderColumns,
			agency, year, status, o.DanCount, o.KyuCount, now, actor.String(), note))
		if err != nil {
			return Order{}, ledger.PgErr(err, "decide order")
		}
		var p ledger.Payload = NewOrderGrantedPayload(o)
		if !grant {
			p = OrderRefusedPayload(NewOrderGrantedPayload(o))
		}
		err = ledger.Append(ctx, tx, now, actor, "order", OrderEntity(o), p)
		return o, err
	})
}

// ListOrders lists orders, newest year first: an agency sees its own, staff
// every agency's (or one agency's when agency is set).
func (s *Service) ListOrders(ctx context.Context, actor ledger.Actor, agency string) ([]Order, error) {
	if err := access.RequireSignedIn(actor, access.ReadApplications); err != nil {
		return nil, err
	}
	if actor.Kind == ledger.AgencyActor {
		agency = actor.Agency
	}
	rows, err := s.db.Query(ctx, `SELECT `+orderColumns+` FROM certificate_orders
		WHERE $1 = '' OR agency_prefix = $1 ORDER BY year DESC, agency_prefix`, agency)
	if err != nil {
		return nil, fmt.Errorf("list orders: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Order, error) { return scanOrder(r) })
}

// Quota is an agency's stock for a year: granted and used.
type Quota struct {
	Year                int
	DanGranted, DanUsed int
	KyuGranted, KyuUsed int
}

// QuotaOf reports an agency's granted and used stock for a year, to that
// agency (suspended or not) and to staff.
func (s *Service) QuotaOf(ctx context.Context, actor ledger.Actor, agency string, year int) (Quota, error) {
	if err := s.policy.Require(ctx, s.db, actor, access.ReadQuota, agency); err != nil {
		return Quota{}, err
	}
	q := Quota{Year: year}
	err := s.db.QueryRow(ctx, `SELECT
			coalesce((SELECT dan_count FROM certificate_orders WHERE agency_prefix = $1 AND year = $2 AND status = 'granted'), 0),
			coalesce((SELECT kyu_count FROM certificate_orders WHERE agency_prefix = $1 AND year = $2 AND status = 'granted'), 0),
			(SELECT count(*) FROM certificates WHERE issuing_prefix = $1 AND year = $3 AND kind = 'dan' AND serial IS NOT NULL AND NOT from_paper),
			(SELECT count(*) FROM certificates WHERE issuing_prefix = $1 AND year = $3 AND kind = 'kyu' AND serial IS NOT NULL AND NOT from_paper)`,
		agency, year, year%100).Scan(&q.DanGranted, &q.KyuGranted, &q.DanUsed, &q.KyuUsed)
	if err != nil {
		return q, fmt.Errorf("quota of agency %s for %d: %w", agency, year, err)
	}
	return q, nil
}

// orderStatusWords is an order's status as the refusals word it.
func orderStatusWords(st OrderStatus) ledger.Param {
	switch st {
	case OrderGranted:
		return ledger.Words("status", "批准", "granted")
	case OrderRefused:
		return ledger.Words("status", "驳回", "refused")
	}
	return ledger.Words("status", "提交", string(st))
}
