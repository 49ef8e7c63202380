package certs

import (
	"context"
	"log/slog"
)

// WarnOverdue runs the sweeper's warning about notices held open too long.
func (s *Service) WarnOverdue(ctx context.Context, log *slog.Logger) error {
	return s.warnOverdue(ctx, log)
}
