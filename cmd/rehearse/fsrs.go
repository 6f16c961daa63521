package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

const fsrsUsage = `usage: rehearse fsrs COMMAND [flags]

commands:
  optimize LOG.csv   fit FSRS-6 parameters to a review log and print them with the log loss
                     before (default parameters) and after, as JSON
  loss LOG.csv       print the log loss of --params over a review log
  simulate           print the review log (CSV) of a simulated learner whose memory follows
                     --params, scheduled with the default parameters

A review log is CSV with a header naming at least card_id, review_time (RFC 3339) and rating
(1 again, 2 hard, 3 good, 4 easy); other columns are ignored.
`

// cmdFSRS runs the scheduler's offline tools: the optimizer and the learner simulation used to
// check it.
func cmdFSRS(ctx context.Context, args []string, _ func(string) string, io stdio) error {
	if len(args) == 0 {
		fmt.Fprint(io.err, fsrsUsage)
		return exitError{2}
	}
	switch args[0] {
	case "optimize":
		return cmdFSRSOptimize(ctx, args[1:], io)
	case "loss":
		return cmdFSRSLoss(args[1:], io)
	case "simulate":
		return cmdFSRSSimulate(args[1:], io)
	case "-h", "--help", "help":
		fmt.Fprint(io.out, fsrsUsage)
		return nil
	}
	fmt.Fprint(io.err, fsrsUsage)
	return fmt.Errorf("fsrs: unknown command %q", args[0])
}

// parseFlags parses flags placed before or after one positional argument.
func parseFlags(fs *flag.FlagSet, args []string) (rest []string, err error) {
	for a := args; ; {
		if err := fs.Parse(a); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		a = fs.Args()[1:]
	}
}

func flagExit(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return exitError{2}
}

func cmdFSRSOptimize(ctx context.Context, args []string, io stdio) error {
	fs := flag.NewFlagSet("fsrs optimize", flag.ContinueOnError)
	fs.SetOutput(io.err)
	epochs := fs.Int("epochs", 0, "passes over the log (0: at least 10 and 400 optimizer steps)")
	recency := fs.Bool("recency", false, "weigh recent reviews more, for a learner whose memory changed")
	seed := fs.Uint64("seed", 0, "seed for the order of the mini-batches")
	fs.Usage = func() {
		fmt.Fprintln(io.err, "usage: rehearse fsrs optimize [flags] LOG.csv")
		fs.PrintDefaults()
	}
	rest, err := parseFlags(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(rest) != 1 {
		fs.Usage()
		return exitError{2}
	}
	log, err := readReviewLogFile(rest[0])
	if err != nil {
		return err
	}
	res, err := srs.Fit(ctx, log, srs.FitOptions{Epochs: *epochs, Recency: *recency, Seed: *seed})
	if err != nil {
		return fmt.Errorf("fsrs optimize: %s: %w", rest[0], err)
	}
	return writeJSON(io.out, fitReport{res.Params, res.LossBefore, res.LossAfter, res.Reviews, res.Cards, res.Scored})
}

// fitReport is what `fsrs optimize` prints: the loss is the mean log loss over the answers
// given a day or more after the card's previous one, "before" with the default parameters.
type fitReport struct {
	Parameters    [21]float64 `json:"parameters"`
	LogLossBefore float64     `json:"log_loss_before"`
	LogLossAfter  float64     `json:"log_loss_after"`
	Reviews       int         `json:"reviews"`
	Cards         int         `json:"cards"`
	Scored        int         `json:"scored_reviews"`
}

func cmdFSRSLoss(args []string, io stdio) error {
	fs := flag.NewFlagSet("fsrs loss", flag.ContinueOnError)
	fs.SetOutput(io.err)
	params := fs.String("params", "", "21 (or 19) weights, as a JSON array or comma-separated (default: the defaults)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(rest) != 1 {
		fmt.Fprintln(io.err, "usage: rehearse fsrs loss [--params W] LOG.csv")
		return exitError{2}
	}
	w, err := parseParams(*params)
	if err != nil {
		return err
	}
	log, err := readReviewLogFile(rest[0])
	if err != nil {
		return err
	}
	loss, n, err := srs.LogLoss(w, log)
	if err != nil {
		return fmt.Errorf("fsrs loss: %s: %w", rest[0], err)
	}
	return writeJSON(io.out, map[string]any{"log_loss": loss, "scored_reviews": n})
}

func cmdFSRSSimulate(args []string, io stdio) error {
	fs := flag.NewFlagSet("fsrs simulate", flag.ContinueOnError)
	fs.SetOutput(io.err)
	params := fs.String("params", "", "the learner's true weights (default: the defaults)")
	cards := fs.Int("cards", 2000, "cards the learner studies")
	perDay := fs.Int("new-per-day", 20, "new cards a day")
	days := fs.Int("days", 365, "days simulated")
	seed := fs.Uint64("seed", 1, "random seed; another seed is another log of the same learner")
	if _, err := parseFlags(fs, args); err != nil {
		return flagExit(err)
	}
	w, err := parseParams(*params)
	if err != nil {
		return err
	}
	if *cards < 1 || *cards > 1_000_000 || *perDay < 1 || *days < 1 || *days > 36500 {
		return errors.New("fsrs simulate: --cards 1..1000000, --new-per-day ≥ 1, --days 1..36500")
	}
	l := srs.Learner{Memory: w, Scheduler: srs.DefaultScheduler(), Cards: *cards, NewPerDay: *perDay, Days: *days, Seed: *seed}
	bw := bufio.NewWriter(io.out)
	fmt.Fprintln(bw, "card_id,review_time,rating")
	for _, r := range l.Simulate() {
		fmt.Fprintf(bw, "%s,%s,%d\n", r.CardID, r.Time.Format(time.RFC3339), r.Rating)
	}
	return bw.Flush()
}

// parseParams reads weights given as a JSON array or comma-separated numbers; empty means the
// defaults.
func parseParams(s string) ([21]float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return srs.DefaultParams, nil
	}
	var ws []float64
	for _, f := range strings.Split(strings.Trim(s, "[]"), ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return [21]float64{}, fmt.Errorf("--params: %q is not a number", strings.TrimSpace(f))
		}
		ws = append(ws, v)
	}
	w, err := srs.ParamsFromSlice(ws)
	if err != nil {
		return w, fmt.Errorf("--params: %w", err)
	}
	return w, nil
}

func readReviewLogFile(path string) ([]srs.Answer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	log, err := readReviewLog(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return log, nil
}

// readReviewLog reads a CSV review log; the first bad row stops it with its line number.
func readReviewLog(r io.Reader) ([]srs.Answer, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("empty file: want a header card_id,review_time,rating")
		}
		return nil, err
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, name := range []string{"card_id", "review_time", "rating"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("line 1: no %s column (want a header card_id,review_time,rating)", name)
		}
	}
	need := max(col["card_id"], col["review_time"], col["rating"])
	var out []srs.Answer
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		if len(rec) <= need {
			return nil, fmt.Errorf("line %d: %d fields, want at least %d", line, len(rec), need+1)
		}
		id := strings.TrimSpace(rec[col["card_id"]])
		if id == "" {
			return nil, fmt.Errorf("line %d: empty card_id", line)
		}
		at, err := time.Parse(time.RFC3339, strings.TrimSpace(rec[col["review_time"]]))
		if err != nil {
			return nil, fmt.Errorf("line %d: review_time %q is not an RFC 3339 time", line, rec[col["review_time"]])
		}
		g, err := strconv.Atoi(strings.TrimSpace(rec[col["rating"]]))
		if err != nil || !srs.Rating(g).Valid() {
			return nil, fmt.Errorf("line %d: rating %q, want 1 (again), 2 (hard), 3 (good) or 4 (easy)", line, rec[col["rating"]])
		}
		out = append(out, srs.Answer{CardID: id, Time: at, Rating: srs.Rating(g)})
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
