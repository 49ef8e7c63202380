package api

import (
	"bytes"
	"context"
	"fmt"
	"time"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/tournaments"
)

// TournamentServer serves dankyu.v1.TournamentService.
type TournamentServer struct {
	pb.UnimplementedTournamentServiceServer
	ts    *tournaments.Service
	reads TournamentReads
}

// NewTournamentServer serves the tournaments of ts, the public's reads from reads.
func NewTournamentServer(ts *tournaments.Service, reads TournamentReads) *TournamentServer {
	return &TournamentServer{ts: ts, reads: reads}
}

func tournamentPB(e tournaments.Event) *pb.Tournament {
	out := &pb.Tournament{Id: e.ID, Name: e.Name, OrganiserPrefix: e.OrganiserPrefix, StartDate: e.Start.Format(time.DateOnly),
		EndDate: e.End.Format(time.DateOnly), Venue: e.Venue, Level: string(e.Level), System: string(e.System),
		StandingsOrder: string(e.Order), Rounds: int32(e.Rounds), Rules: e.Rules, Komi: e.Komi, Team: e.Team, DanGrade: e.DanGrade,
		Seed: e.Seed, Status: e.Status, PairedRounds: int32(e.PairedRounds), CreatedAt: ts(e.CreatedAt),
		ChiefReferee: e.ChiefReferee, Colours: string(e.Colours), Ties: string(e.Ties),
		Lives: int32(e.Lives), Cycles: int32(e.Cycles), BestOf: int32(e.BestOf), TeamBoards: string(e.Boards),
		TeamFormat: string(e.TeamFormat), Reserves: int32(e.Reserves), GradingSetAt: ts(e.GradingSetAt),
		RulesBeforeStart: e.RulesPublishedBeforeStart(), GradingAtImport: e.GradingAtImport, GradingAccepted: e.GradingAcceptedAt != nil}
	for _, g := range e.Groups {
		out.Groups = append(out.Groups, &pb.TournamentGroup{Name: g.Name, TargetRank: g.TargetRank.String(), MinWins: int32(g.MinWins)})
	}
	for _, g := range e.Grading {
		out.Grading = append(out.Grading, &pb.GradingRule{MaxPlacing: int32(g.MaxPlacing), MinWins: int32(g.MinWins), Group: g.Group, Rank: g.Rank.String()})
	}
	return out
}

func gradingIn(rs []*pb.GradingRule) []tournaments.GradingRuleInput {
	var out []tournaments.GradingRuleInput
	for _, g := range rs {
		out = append(out, tournaments.GradingRuleInput{MaxPlacing: int(g.GetMaxPlacing()), MinWins: int(g.GetMinWins()), Group: g.GetGroup(), Rank: g.GetRank()})
	}
	return out
}

// SetGrading replaces an event's grading table before it starts.
func (s *TournamentServer) SetGrading(ctx context.Context, req *pb.SetGradingRequest) (*pb.SetGradingResponse, error) {
	e, err := s.ts.SetGrading(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), gradingIn(req.GetGrading()))
	if err != nil {
		return nil, err
	}
	return &pb.SetGradingResponse{Tournament: tournamentPB(e)}, nil
}

// AcceptImportedGrading is staff's acceptance of an imported event's rules.
func (s *TournamentServer) AcceptImportedGrading(ctx context.Context, req *pb.AcceptImportedGradingRequest) (*pb.AcceptImportedGradingResponse, error) {
	e, err := s.ts.AcceptImportedGrading(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId(), req.GetNote())
	if err != nil {
		return nil, err
	}
	return &pb.AcceptImportedGradingResponse{Tournament: tournamentPB(e)}, nil
}

func participantPB(p tournaments.Participant, groups map[int64]string) *pb.TournamentParticipant {
	return &pb.TournamentParticipant{Number: int32(p.Number), PlayerId: p.PlayerID, Name: p.Name, Rank: p.Rank.String(),
		Country: p.Country, Group: groups[p.GroupID], Team: p.Team, Board: int32(p.Board), Withdrawn: p.Withdrawn, Reserve: p.Reserve}
}

func gamePB(g tournaments.GameRow) *pb.TournamentGame {
	return &pb.TournamentGame{Round: int32(g.Round), Board: int32(g.Board), Black: int32(g.Black), White: int32(g.White),
		Result: string(g.Result), BlackWarnings: int32(g.BlackWarnings), WhiteWarnings: int32(g.WhiteWarnings), Nigiri: g.Nigiri,
		HasRecord: g.HasRecord, Adjudicated: g.Adjudicated, Flagged: g.Flagged, FlagReason: g.FlagReason,
		ForfeitReason: g.ForfeitReason, Confirmed: g.Confirmed, Voided: g.Voided, VoidedResult: string(g.VoidedResult),
		VoidReason: g.VoidReason, NigiriHolder: int32(g.NigiriHolder), NigiriGuess: g.NigiriGuess, WrongColours: g.WrongColours,
		FlagCode: g.FlagCode, FlagParams: g.FlagParams}
}

func roundPB(r tournaments.RoundInfo) *pb.TournamentRound {
	out := &pb.TournamentRound{Round: int32(r.Round), Seed: r.Seed, Bye: int32(r.Bye), Playoff: r.Playoff}
	for _, g := range r.Games {
		out.Games = append(out.Games, gamePB(g))
	}
	return out
}

func standingsPB(st []tournaments.Standing) []*pb.StandingRow {
	var out []*pb.StandingRow
	for _, s := range st {
		out = append(out, &pb.StandingRow{Place: int32(s.Place), Number: int32(s.Entrant), Name: s.Name, Points: int32(s.Points),
			Wins: int32(s.Wins), Draws: int32(s.Draws), Losses: int32(s.Losses), WinnersScore: float64(s.WinnersScore2) / 2,
			Sos: int32(s.SOS), Sosos: int32(s.SOSOS), Sodos: float64(s.SODOS2) / 2, Mms: int32(s.MMS), Total: s.Total,
			Warnings: int32(s.Warnings), Withdrawn: s.Withdrawn, Tied: s.Tied, PlayoffPoints: int32(s.PlayoffPoints)})
	}
	return out
}

func proposalsPB(ps []tournaments.Proposal) []*pb.Proposal {
	var out []*pb.Proposal
	for _, p := range ps {
		out = append(out, &pb.Proposal{Number: int32(p.Number), Name: p.Name, ApplicationId: p.ApplicationID, Note: p.Note,
			NoteCode: p.NoteCode, NoteParams: p.NoteParams})
	}
	return out
}

func (s *TournamentServer) CreateTournament(ctx context.Context, req *pb.CreateTournamentRequest) (*pb.CreateTournamentResponse, error) {
	in := tournaments.EventInput{Name: req.GetName(), Start: req.GetStartDate(), End: req.GetEndDate(), Venue: req.GetVenue(),
		Level: req.GetLevel(), System: req.GetSystem(), Order: req.GetStandingsOrder(), Rounds: int(req.GetRounds()), Rules: req.GetRules(),
		Team: req.GetTeam(), DanGrade: req.GetDanGrade(), Seed: req.GetSeed(), ChiefReferee: req.GetChiefReferee(), Colours: req.GetColours(),
		Ties: req.GetTies(), Lives: int(req.GetLives()), Cycles: int(req.GetCycles()), BestOf: int(req.GetBestOf()),
		Boards: req.GetTeamBoards(), TeamFormat: req.GetTeamFormat(), Reserves: int(req.GetReserves()), Grading: gradingIn(req.GetGrading()),
		Conduct: conductIn(req.GetConduct())}
	if req.Komi != nil {
		k := req.GetKomi()
		in.Komi = &k
	}
	for _, g := range req.GetGroups() {
		in.Groups = append(in.Groups, tournaments.GroupInput{Name: g.GetName(), TargetRank: g.GetTargetRank(), MinWins: int(g.GetMinWins())})
	}
	e, err := s.ts.CreateEvent(ctx, ActorFrom(ctx), idempotencyKey(ctx), in)
	if err != nil {
		return nil, err
	}
	return &pb.CreateTournamentResponse{Tournament: tournamentPB(e)}, nil
}

func (s *TournamentServer) GetTournament(ctx context.Context, req *pb.GetTournamentRequest) (*pb.GetTournamentResponse, error) {
	r, err := s.reads.EventReport(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	groups := map[int64]string{}
	for _, g := range r.Event.Groups {
		groups[g.ID] = g.Name
	}
	resp := &pb.GetTournamentResponse{Tournament: tournamentPB(r.Event), Standings: standingsPB(r.Standings), Proposals: proposalsPB(r.Proposals)}
	for _, p := range r.Participants {
		resp.Participants = append(resp.Participants, participantPB(p, groups))
	}
	for _, rd := range r.Rounds {
		resp.Rounds = append(resp.Rounds, roundPB(rd))
	}
	for _, t := range r.Teams {
		row := &pb.TeamStandingRow{Place: int32(t.Place), Team: t.Team, MatchPoints: int32(t.MatchPoints), BoardPoints: int32(t.BoardPoints),
			Sos: int32(t.SOS), Total: t.Total}
		for _, b := range t.ByBoard {
			row.ByBoard = append(row.ByBoard, int32(b))
		}
		resp.TeamStandings = append(resp.TeamStandings, row)
	}
	resp.Arena = arenaPB(r.Arena)
	conductReportPB(resp, r)
	return resp, nil
}

func (s *TournamentServer) ListTournaments(ctx context.Context, req *pb.ListTournamentsRequest) (*pb.ListTournamentsResponse, error) {
	es, err := s.reads.ListEvents(ctx, req.GetOrganiserPrefix(), 0)
	if err != nil {
		return nil, err
	}
	resp := &pb.ListTournamentsResponse{}
	for _, e := range es {
		resp.Tournaments = append(resp.Tournaments, tournamentPB(e))
	}
	return resp, nil
}

func (s *TournamentServer) AddParticipant(ctx context.Context, req *pb.AddParticipantRequest) (*pb.AddParticipantResponse, error) {
	p, err := s.ts.AddParticipant(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.ParticipantInput{
		PlayerID: req.GetPlayerId(), GuestName: req.GetGuestName(), GuestRank: req.GetGuestRank(), GuestCountry: req.GetGuestCountry(),
		Group: req.GetGroup(), Team: req.GetTeam(), Board: int(req.GetBoard()), Reserve: req.GetReserve()})
	if err != nil {
		return nil, err
	}
	return &pb.AddParticipantResponse{Participant: participantPB(p, nil)}, nil
}

func (s *TournamentServer) WithdrawParticipant(ctx context.Context, req *pb.WithdrawParticipantRequest) (*pb.WithdrawParticipantResponse, error) {
	p, err := s.ts.Withdraw(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), int(req.GetNumber()))
	if err != nil {
		return nil, err
	}
	return &pb.WithdrawParticipantResponse{Participant: participantPB(p, nil)}, nil
}

func (s *TournamentServer) PairNextRound(ctx context.Context, req *pb.PairNextRoundRequest) (*pb.PairNextRoundResponse, error) {
	r, err := s.ts.PairNextRound(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId())
	if err != nil {
		return nil, err
	}
	resp := &pb.PairNextRoundResponse{Round: roundPB(r)}
	for _, p := range r.Together {
		resp.Together = append(resp.Together, &pb.PairedTogether{Black: int32(p.Black), White: int32(p.White)})
	}
	return resp, nil
}

func (s *TournamentServer) RecordResult(ctx context.Context, req *pb.RecordResultRequest) (*pb.RecordResultResponse, error) {
	g, err := s.ts.RecordResult(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.ResultInput{
		Round: int(req.GetRound()), Board: int(req.GetBoard()), Result: req.GetResult(), BlackWarnings: int(req.GetBlackWarnings()),
		WhiteWarnings: int(req.GetWhiteWarnings()), SGF: req.GetSgf(), ForfeitReason: req.GetForfeitReason(),
		ColoursSwapped: req.GetColoursSwapped(), NoticedAtMove: int(req.GetNoticedAtMove())})
	if err != nil {
		return nil, err
	}
	return &pb.RecordResultResponse{Game: gamePB(g)}, nil
}

// RecordRoundResults records several boards of one round at once. Who may
// is decided as for RecordResult (the event's organiser under the policy's
// RunEvent, staff), by the service; the boards are bounded by the round's.
func (s *TournamentServer) RecordRoundResults(ctx context.Context, req *pb.RecordRoundResultsRequest) (*pb.RecordRoundResultsResponse, error) {
	ins := make([]tournaments.ResultInput, len(req.GetResults()))
	for i, r := range req.GetResults() {
		ins[i] = tournaments.ResultInput{Round: int(req.GetRound()), Board: int(r.GetBoard()), Result: r.GetResult(),
			BlackWarnings: int(r.GetBlackWarnings()), WhiteWarnings: int(r.GetWhiteWarnings()), SGF: r.GetSgf(),
			ForfeitReason: r.GetForfeitReason(), ColoursSwapped: r.GetColoursSwapped(), NoticedAtMove: int(r.GetNoticedAtMove())}
	}
	gs, err := s.ts.RecordRoundResults(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), int(req.GetRound()), ins)
	if err != nil {
		return nil, err
	}
	resp := &pb.RecordRoundResultsResponse{}
	for _, g := range gs {
		resp.Games = append(resp.Games, gamePB(g))
	}
	return resp, nil
}

func (s *TournamentServer) FinishTournament(ctx context.Context, req *pb.FinishTournamentRequest) (*pb.FinishTournamentResponse, error) {
	r, err := s.ts.Finish(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId())
	if err != nil {
		return nil, err
	}
	return &pb.FinishTournamentResponse{Standings: standingsPB(r.Standings), Proposals: proposalsPB(r.Proposals), Arena: arenaPB(r.Arena)}, nil
}

func (s *TournamentServer) ImportTournament(ctx context.Context, req *pb.ImportTournamentRequest) (*pb.ImportTournamentResponse, error) {
	in := tournaments.ImportInput{Data: req.GetData(), Format: req.GetFormat(), Level: req.GetLevel(), Commit: req.GetCommit(),
		Matches: map[int]int64{}, Grading: gradingIn(req.GetGrading())}
	for k, v := range req.GetMatches() {
		in.Matches[int(k)] = v
	}
	for _, g := range req.GetGuests() {
		in.Guests = append(in.Guests, int(g))
	}
	for _, b := range req.GetByePlayers() {
		in.ByePlayers = append(in.ByePlayers, int(b))
	}
	res, err := s.ts.ImportEvent(ctx, ActorFrom(ctx), idempotencyKey(ctx), in)
	if err != nil {
		return nil, err
	}
	resp := &pb.ImportTournamentResponse{Format: res.Summary.Format, Players: int32(res.Summary.Players), Rounds: int32(res.Summary.Rounds),
		Games: int32(res.Summary.Games), Byes: int32(res.Summary.Byes)}
	for _, p := range res.Players {
		ip := &pb.ImportPlayer{Index: int32(p.Index), Name: p.Name, Rank: p.Rank, Country: p.Country, PlayerId: p.PlayerID,
			Candidates: p.Candidates, Status: p.Status, Basis: p.Basis, Club: p.Club, EgdPin: p.EGDPin}
		for _, c := range p.Proposals {
			facts := map[string]string{}
			for k, v := range c.Facts {
				facts[k] = string(v)
			}
			ip.Proposals = append(ip.Proposals, &pb.ImportCandidate{PlayerId: c.PlayerID, Name: c.Name, LatinName: c.LatinName,
				ProvinceCode: c.ProvinceCode, BirthYear: int32(c.BirthYear), IdentityNumber: c.Identity, Rank: c.Rank, EgdPin: c.EGDPin,
				Minor: c.Minor, Facts: facts, StableId: c.StableID})
		}
		resp.ImportPlayers = append(resp.ImportPlayers, ip)
	}
	for _, w := range res.Summary.Warnings {
		resp.Warnings = append(resp.Warnings, &pb.ImportWarning{Line: int32(w.Line), Code: w.Code, Params: w.Params,
			Message: w.String(), MessageZh: w.MsgZH, Player: int32(w.Player)})
	}
	if res.Event != nil {
		resp.Tournament = tournamentPB(*res.Event)
	}
	return resp, nil
}

func (s *TournamentServer) ExportTournament(ctx context.Context, req *pb.ExportTournamentRequest) (*pb.ExportTournamentResponse, error) {
	var buf bytes.Buffer
	resp := &pb.ExportTournamentResponse{}
	var err error
	opts := tournaments.H9Options{Class: req.GetEgdClass(), EventName: req.GetLatinEventName()}
	if req.GetOvertime() != "" || req.GetBasicMinutes() != 0 {
		opts.Time = &tournaments.TimeControl{BasicMinutes: int(req.GetBasicMinutes()), Overtime: req.GetOvertime(),
			Seconds: int(req.GetOvertimeSeconds()), Stones: int(req.GetOvertimeStones()), Online: req.GetOnline()}
	}
	resp.ContentType, resp.Filename, err = s.ts.ExportEventWith(ctx, &buf, req.GetTournamentId(), req.GetFormat(), opts)
	if err != nil {
		return nil, fmt.Errorf("export tournament %d: %w", req.GetTournamentId(), err)
	}
	resp.Data = buf.Bytes()
	return resp, nil
}

func (s *TournamentServer) ConfirmRound(ctx context.Context, req *pb.ConfirmRoundRequest) (*pb.ConfirmRoundResponse, error) {
	r, err := s.ts.ConfirmRound(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), int(req.GetRound()))
	if err != nil {
		return nil, err
	}
	return &pb.ConfirmRoundResponse{Round: roundPB(r)}, nil
}

func (s *TournamentServer) VoidResult(ctx context.Context, req *pb.VoidResultRequest) (*pb.VoidResultResponse, error) {
	v, err := s.ts.VoidResult(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.VoidInput{
		Round: int(req.GetRound()), Board: int(req.GetBoard()), Side: tournaments.VoidSide(req.GetSide()), Reason: req.GetReason()})
	if err != nil {
		return nil, err
	}
	return &pb.VoidResultResponse{Game: gamePB(v.Game), Withdrawn: proposalsPB(v.Withdrawn), Rechecked: int32(v.Rechecked)}, nil
}

func (s *TournamentServer) SuspendPlayer(ctx context.Context, req *pb.SuspendPlayerRequest) (*pb.SuspendPlayerResponse, error) {
	sp, err := s.ts.Suspend(ctx, ActorFrom(ctx), idempotencyKey(ctx), tournaments.SuspensionInput{PlayerID: req.GetPlayerId(),
		From: req.GetFromDate(), To: req.GetToDate(), Reason: req.GetReason(), TournamentID: req.GetTournamentId()})
	if err != nil {
		return nil, err
	}
	return &pb.SuspendPlayerResponse{SuspensionId: sp.ID}, nil
}

func protestPB(p tournaments.Protest) *pb.TournamentProtest {
	return &pb.TournamentProtest{Id: p.ID, Round: int32(p.Round), Board: int32(p.Board), Number: int32(p.Number), Reason: p.Reason,
		LodgedAt: ts(p.LodgedAt), Status: p.Status, Ruling: p.Ruling}
}

func (s *TournamentServer) LodgeProtest(ctx context.Context, req *pb.LodgeProtestRequest) (*pb.LodgeProtestResponse, error) {
	p, err := s.ts.LodgeProtest(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.ProtestInput{
		Round: int(req.GetRound()), Board: int(req.GetBoard()), Number: int(req.GetNumber()), Reason: req.GetReason()})
	if err != nil {
		return nil, err
	}
	return &pb.LodgeProtestResponse{Protest: protestPB(p)}, nil
}

func (s *TournamentServer) RuleProtest(ctx context.Context, req *pb.RuleProtestRequest) (*pb.RuleProtestResponse, error) {
	p, err := s.ts.RuleProtest(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), req.GetProtestId(), req.GetUpheld(), req.GetRuling())
	if err != nil {
		return nil, err
	}
	return &pb.RuleProtestResponse{Protest: protestPB(p)}, nil
}

func (s *TournamentServer) ListProtests(ctx context.Context, req *pb.ListProtestsRequest) (*pb.ListProtestsResponse, error) {
	ps, err := s.ts.Protests(ctx, req.GetTournamentId())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListProtestsResponse{}
	for _, p := range ps {
		resp.Protests = append(resp.Protests, protestPB(p))
	}
	return resp, nil
}

func (s *TournamentServer) RecordNigiri(ctx context.Context, req *pb.RecordNigiriRequest) (*pb.RecordNigiriResponse, error) {
	g, err := s.ts.RecordNigiri(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.NigiriInput{
		Round: int(req.GetRound()), Board: int(req.GetBoard()), Guess: req.GetGuess(), Stones: int(req.GetStones())})
	if err != nil {
		return nil, err
	}
	return &pb.RecordNigiriResponse{Game: gamePB(g)}, nil
}

func arenaPB(a *tournaments.ArenaResult) *pb.ArenaResult {
	if a == nil {
		return nil
	}
	out := &pb.ArenaResult{Teams: a.Teams[:], Left: []int32{int32(a.Left[0]), int32(a.Left[1])}, Decided: a.Decided,
		Winner: a.Winner, Level: a.Level}
	for _, p := range a.Players {
		out.Players = append(out.Players, &pb.ArenaPlayer{Number: int32(p.Number), Team: p.Team, Order: int32(p.Order),
			Wins: int32(p.Wins), Played: p.Played, Out: p.Out})
	}
	return out
}

func (s *TournamentServer) SetBoard(ctx context.Context, req *pb.SetBoardRequest) (*pb.SetBoardResponse, error) {
	p, err := s.ts.SetBoard(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), int(req.GetNumber()), int(req.GetBoard()))
	if err != nil {
		return nil, err
	}
	return &pb.SetBoardResponse{Participant: participantPB(p, nil)}, nil
}

func (s *TournamentServer) SetLineup(ctx context.Context, req *pb.SetLineupRequest) (*pb.SetLineupResponse, error) {
	in := tournaments.LineupInput{Team: req.GetTeam()}
	for _, n := range req.GetNumbers() {
		in.Numbers = append(in.Numbers, int(n))
	}
	got, err := s.ts.SetLineup(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), in)
	if err != nil {
		return nil, err
	}
	resp := &pb.SetLineupResponse{}
	for _, n := range got {
		resp.Numbers = append(resp.Numbers, int32(n))
	}
	return resp, nil
}

func (s *TournamentServer) PairPlayoff(ctx context.Context, req *pb.PairPlayoffRequest) (*pb.PairPlayoffResponse, error) {
	r, err := s.ts.PairPlayoff(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId())
	if err != nil {
		return nil, err
	}
	return &pb.PairPlayoffResponse{Round: roundPB(r)}, nil
}

func refereeWarningPB(w tournaments.RefereeWarning) *pb.RefereeWarning {
	return &pb.RefereeWarning{Id: w.ID, Round: int32(w.Round), Board: int32(w.Board), Number: int32(w.Number), Cause: string(w.Cause),
		Note: w.Note, Referee: w.Referee, GivenAt: ts(w.GivenAt), GivenBy: w.GivenBy, Decided: w.Decided}
}

func (s *TournamentServer) RecordRefereeWarning(ctx context.Context, req *pb.RecordRefereeWarningRequest) (*pb.RecordRefereeWarningResponse, error) {
	w, err := s.ts.RecordWarning(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.WarningInput{
		Round: int(req.GetRound()), Board: int(req.GetBoard()), Number: int(req.GetNumber()), Cause: req.GetCause(),
		Note: req.GetNote(), Referee: req.GetReferee()})
	if err != nil {
		return nil, err
	}
	return &pb.RecordRefereeWarningResponse{Warning: refereeWarningPB(w.Warning), Game: gamePB(w.Game)}, nil
}

func (s *TournamentServer) ListRefereeWarnings(ctx context.Context, req *pb.ListRefereeWarningsRequest) (*pb.ListRefereeWarningsResponse, error) {
	ws, err := s.ts.RefereeWarnings(ctx, req.GetTournamentId())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListRefereeWarningsResponse{}
	for _, w := range ws {
		resp.Warnings = append(resp.Warnings, refereeWarningPB(w))
	}
	return resp, nil
}

func sanctionPB(x tournaments.Sanction) *pb.TournamentSanction {
	return &pb.TournamentSanction{Id: x.ID, TournamentId: x.TournamentID, TournamentName: x.EventName, PlayerId: x.PlayerID,
		Number: int32(x.Number), Name: x.Name, Kind: string(x.Kind), Reason: x.Reason, DecidedAt: ts(x.DecidedAt), DecidedBy: x.DecidedBy}
}

func (s *TournamentServer) SanctionParticipant(ctx context.Context, req *pb.SanctionParticipantRequest) (*pb.SanctionParticipantResponse, error) {
	x, err := s.ts.Sanction(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), tournaments.SanctionInput{
		Number: int(req.GetNumber()), Kind: req.GetKind(), Reason: req.GetReason()})
	if err != nil {
		return nil, err
	}
	return &pb.SanctionParticipantResponse{Sanction: sanctionPB(x)}, nil
}

func (s *TournamentServer) ListSanctions(ctx context.Context, req *pb.ListSanctionsRequest) (*pb.ListSanctionsResponse, error) {
	var xs []tournaments.Sanction
	var err error
	if req.GetPlayerId() != 0 {
		xs, err = s.ts.PlayerSanctions(ctx, req.GetPlayerId())
	} else {
		xs, err = s.ts.EventSanctions(ctx, req.GetTournamentId())
	}
	if err != nil {
		return nil, err
	}
	resp := &pb.ListSanctionsResponse{}
	for _, x := range xs {
		resp.Sanctions = append(resp.Sanctions, sanctionPB(x))
	}
	return resp, nil
}

func (s *TournamentServer) SetSwissRounds(ctx context.Context, req *pb.SetSwissRoundsRequest) (*pb.SetSwissRoundsResponse, error) {
	e, err := s.ts.SetSwissRounds(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(), int(req.GetRounds()))
	if err != nil {
		return nil, err
	}
	return &pb.SetSwissRoundsResponse{Tournament: tournamentPB(e)}, nil
}

func (s *TournamentServer) SetPairingConstraint(ctx context.Context, req *pb.SetPairingConstraintRequest) (*pb.SetPairingConstraintResponse, error) {
	c, err := s.ts.SetPairingConstraint(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetTournamentId(),
		tournaments.PairingConstraint{Rounds: int(req.GetAvoidRounds()), Kinds: req.GetKinds()})
	if err != nil {
		return nil, err
	}
	return &pb.SetPairingConstraintResponse{AvoidRounds: int32(c.Rounds), Kinds: c.Kinds}, nil
}
