package certs

import (
	"context"
	"log/slog"
	"time"
)

// RunSweeper sweeps due notices now and then every interval until ctx ends.
// Every server process may run one: the sweep claims notices with SKIP LOCKED.
func (s *Service) RunSweeper(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		issued, err := s.Sweep(ctx)
		for _, c := range issued {
			log.InfoContext(ctx, "certificate issued after public notice", "number", c.Number, "rank", c.Rank.String())
		}
		if err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "notice sweep", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
