package server_test

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"

	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// TestStatisticsOverGRPC reads the summary as the public and the details
// as staff; an agency asking for the details is refused.
func TestStatisticsOverGRPC(t *testing.T) {
	e := newEnv(t)
	fixture.StatisticsData(t, e.reg, e.cs, e.ts, e.clock)
	stats := pb.NewStatisticsServiceClient(e.conn)

	sum, err := stats.GetStatistics(context.Background(), &pb.GetStatisticsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.GetYear() != int32(fixture.StatisticsYear(e.clock)) || len(sum.GetAgencies()) != 0 {
		t.Fatalf("summary: year %d, %d agency rows", sum.GetYear(), len(sum.GetAgencies()))
	}
	var ranks []string
	for _, r := range sum.GetRanks() {
		ranks = append(ranks, r.GetRank())
	}
	if got := len(ranks); got != 5 || ranks[0] != "10k" || ranks[4] != "6d" {
		t.Errorf("ranks = %v", ranks)
	}
	bj := sum.GetProvinces()[0]
	if bj.GetPrefix() != "110" || bj.GetCertificates() != 4 || bj.GetHolders() != 3 || bj.GetPlayers() != 5 || bj.GetHoldersPer_10K() != 6000 {
		t.Errorf("Beijing = %v", bj)
	}
	n := sum.GetNotices()
	if n.GetNotices() != 3 || n.GetIssued() != 2 || n.GetFailed() != 1 || n.GetUpheld() != 1 || n.GetDismissed() != 1 {
		t.Errorf("notices = %v", n)
	}
	if b := sum.GetBases()[1]; b.GetBasis() != pb.Basis_BASIS_APPRAISAL || b.GetCertificates() != 1 {
		t.Errorf("appraisal = %v", b)
	}

	_, err = stats.GetStatistics(e.as(e.bj), &pb.GetStatisticsRequest{Details: true})
	code(t, "agency reading the details", err, codes.PermissionDenied, "staff")
	_, err = stats.GetStatistics(context.Background(), &pb.GetStatisticsRequest{Year: 1999})
	code(t, "year 1999", err, codes.InvalidArgument, "1999")

	det, err := stats.GetStatistics(e.as(e.staff), &pb.GetStatisticsRequest{Details: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(det.GetAgencies()) != 2 {
		t.Fatalf("agencies = %v", det.GetAgencies())
	}
	a := det.GetAgencies()[0]
	if a.GetAgencyPrefix() != "110" || a.GetCertificates() != 4 || a.GetRevoked() != 1 || a.GetNotices().GetObjections() != 2 ||
		len(a.GetBases()) != 4 || a.GetBases()[1].GetCertificates() != 1 {
		t.Errorf("Beijing's details = %v", a)
	}
}
