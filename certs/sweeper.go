package certs

import (
	"context"
	"log/slog"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// RunSweeper sweeps due notices now and then every interval until ctx ends.
// Every server process may run one: the sweep claims notices with SKIP LOCKED.
func (s *Service) RunSweeper(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		// a store that refuses writes (the log's witness found tampering,
		// and said so) would only fail each sweep again: wait instead
		for s.store.Writable() != nil {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
		issued, err := s.Sweep(ctx)
		if s.cfg.OnSweep != nil && ctx.Err() == nil {
			s.cfg.OnSweep(len(issued), err)
		}
		for _, c := range issued {
			log.InfoContext(ctx, "certificate issued after public notice", "number", c.Number, "rank", c.Rank.String())
		}
		if err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "notice sweep", "err", err)
		}
		if err := s.warnOverdue(ctx, log); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "overdue notices", "err", err)
		}
		// idempotency records answer retries for a while, then go
		if n, err := ledger.ExpireIdempotencyKeys(ctx, s.store); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "expire idempotency keys", "err", err)
		} else if n > 0 {
			log.InfoContext(ctx, "idempotency records expired", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
