// Command bench exports the corpus's 19×19 records as move lists and times
// replaying them with the rules engine, for the side-by-side comparison with
// @sabaki/go-board that run.sh prints.
//
//	go run ./rules/bench export > games.json
//	go run ./rules/bench replay games.json 20
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/rules"
)

// game is the shared format: setup stones and moves as [color, x, y]
// (color 1 black, -1 white; x = -1 for a pass).
type game struct {
	Size  int      `json:"size"`
	Setup [][3]int `json:"setup"`
	Moves [][3]int `json:"moves"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench export [GLOB] | bench replay FILE ROUNDS")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "export":
		glob := "rules/testdata/corpus/games/*/*"
		if len(os.Args) > 2 {
			glob = os.Args[2]
		}
		err = export(glob)
	case "replay":
		if len(os.Args) != 4 {
			err = fmt.Errorf("usage: bench replay FILE ROUNDS")
			break
		}
		err = replay(os.Args[2], os.Args[3])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func sign(c rules.Color) int {
	if c == rules.White {
		return -1
	}
	return 1
}

func export(glob string) error {
	files, err := filepath.Glob(glob)
	if err != nil {
		return err
	}
	var games []game
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		trees, err := rules.ParseSGF(data)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		g, err := rules.GameFromTree(trees[0])
		if err != nil || g.Size != 19 {
			continue
		}
		out := game{Size: g.Size}
		for _, s := range g.Steps {
			switch {
			case s.Kind == rules.SetupStep && s.Color != rules.Empty:
				out.Setup = append(out.Setup, [3]int{sign(s.Color), s.At.X, s.At.Y})
			case s.Kind == rules.MoveStep && s.Pass:
				out.Moves = append(out.Moves, [3]int{sign(s.Color), -1, -1})
			case s.Kind == rules.MoveStep:
				out.Moves = append(out.Moves, [3]int{sign(s.Color), s.At.X, s.At.Y})
			}
		}
		games = append(games, out)
	}
	return json.NewEncoder(os.Stdout).Encode(games)
}

func replay(file, roundsArg string) error {
	rounds, err := strconv.Atoi(roundsArg)
	if err != nil || rounds < 1 {
		return fmt.Errorf("rounds %q: want a positive number", roundsArg)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var games []game
	if err := json.Unmarshal(data, &games); err != nil {
		return err
	}
	board, err := rules.NewBoard(19)
	if err != nil {
		return err
	}
	colour := func(s int) rules.Color {
		if s < 0 {
			return rules.White
		}
		return rules.Black
	}
	once := func() (moves, illegal int) {
		for _, g := range games {
			board.Reset()
			for _, s := range g.Setup {
				board.Setup(colour(s[0]), board.At(s[1], s[2]))
			}
			for _, m := range g.Moves {
				p := rules.Pass
				if m[1] >= 0 {
					p = board.At(m[1], m[2])
				}
				if board.Play(colour(m[0]), p) != rules.NoViolation {
					illegal++
				}
				moves++
			}
		}
		return moves, illegal
	}
	once() // warm up, as the JavaScript side warms its JIT
	start := time.Now()
	moves, illegal := 0, 0
	for range rounds {
		m, i := once()
		moves, illegal = moves+m, illegal+i
	}
	ns := float64(time.Since(start).Nanoseconds()) / float64(moves)
	fmt.Printf("{\"engine\":\"dankyu/rules (positional superko)\",\"games\":%d,\"moves\":%d,\"illegal\":%d,\"ns_per_move\":%.1f}\n", len(games), moves, illegal, ns)
	return nil
}
