package api

import (
	"context"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// The public's reads do not go to the domain services directly: each
// server takes them from the public-reads component the portal also uses
// (internal/server.PublicReads), which picks the database (a replica in
// rotation, or the primary for a call the server marked signed in). Each
// server names only the reads it serves.

// CertificateReads are the certificate reads CertificateServer serves.
type CertificateReads interface {
	// VerifyWithReceipts verifies a number and proves each event that made
	// the certificate what it is (Verification.Events) in the event tree,
	// from one database; a receipt is nil when there is none to give.
	VerifyWithReceipts(ctx context.Context, number string) (certs.Verification, []*ledger.Receipt, error)
	// Entries reads the event log's entries (GetLogEntries).
	Entries(ctx context.Context, start, end int64) ([]ledger.Entry, error)
	VerifyBatch(ctx context.Context, rows []certs.BatchRow) ([]certs.BatchResult, error)
	PlayerCertificates(ctx context.Context, playerID int64) ([]certs.Certificate, error)
}

// NoticeReads are the notice reads NoticeServer serves.
type NoticeReads interface {
	ListNotices(ctx context.Context, q certs.NoticeQuery) (certs.NoticePage, error)
	GetNotice(ctx context.Context, id int64) (certs.Notice, error)
}

// RegistryReads are the player and agency reads RegistryServer serves.
type RegistryReads interface {
	GetPlayer(ctx context.Context, id int64) (registry.Player, error)
	SearchPlayers(ctx context.Context, actor ledger.Actor, q registry.PlayerQuery) (registry.PlayerPage, error)
	ListAgencies(ctx context.Context) ([]registry.Agency, error)
	GetAgency(ctx context.Context, prefix string) (registry.Agency, error)
}

// StatisticsReads are the statistics StatisticsServer serves.
type StatisticsReads interface {
	Statistics(ctx context.Context, actor ledger.Actor, year int, details bool) (certs.Stats, error)
}

// TournamentReads are the tournament reads TournamentServer serves.
type TournamentReads interface {
	ListEvents(ctx context.Context, organiser string, limit int) ([]tournaments.Event, error)
	EventReport(ctx context.Context, id int64) (tournaments.Report, error)
}
