package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// cmdSim runs a rebalance scenario (JSON from FILE or stdin, or a preset) and prints the result.
func cmdSim(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(io.err)
	format := fs.String("format", "json", "output format: json or table")
	presetName := fs.String("preset", "", "start from a named scenario (see --list)")
	list := fs.Bool("list", false, "list the presets and exit")
	protocol := fs.String("protocol", "", "protocol: eager, cooperative, consumer (consumers); eager, incremental (Connect)")
	nMembers := fs.Int("members", 0, "replace the members with N generated ones (m1..mN)")
	partitions := fs.Int("partitions", 0, "partitions of the (first) topic")
	static := fs.Bool("static", false, "static membership (group.instance.id)")
	seed := fs.Int64("seed", -1, "random seed (heartbeat phases)")
	fs.Usage = func() {
		fmt.Fprintln(io.err, "usage: rehearse sim [flags] [FILE]\n\nReads a scenario (JSON) from FILE or stdin, or starts from --preset, and prints the result.")
		fs.PrintDefaults()
	}
	var rest []string
	for a := args; ; {
		if err := fs.Parse(a); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			return exitError{2}
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		a = fs.Args()[1:]
	}
	fail := func(err error) error {
		fmt.Fprintln(io.err, "rehearse sim:", err)
		return exitError{2}
	}
	if *list {
		tw := tabwriter.NewWriter(io.out, 0, 4, 2, ' ', 0)
		for _, p := range rebalance.Presets() {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", p.Name, p.Kind, p.Description)
		}
		return tw.Flush()
	}
	if *format != "json" && *format != "table" {
		return fail(fmt.Errorf("--format: must be json or table, not %q", *format))
	}
	if len(rest) > 1 {
		return fail(fmt.Errorf("at most one FILE, got %d", len(rest)))
	}
	var sc rebalance.Scenario
	switch {
	case *presetName != "":
		if len(rest) > 0 {
			return fail(fmt.Errorf("give either --preset or FILE, not both"))
		}
		var ok bool
		if sc, ok = rebalance.Preset(*presetName); !ok {
			return fail(fmt.Errorf("unknown preset %q (see rehearse sim --list)", *presetName))
		}
	default:
		in := io.in
		if len(rest) == 1 && rest[0] != "-" {
			f, err := os.Open(rest[0])
			if err != nil {
				return fail(err)
			}
			defer f.Close()
			in = f
		}
		var err error
		if sc, err = rebalance.Decode(in, rebalance.CLILimits); err != nil {
			return fail(err)
		}
	}
	sc, err := applyFlags(sc, *protocol, *nMembers, *partitions, *static, *seed)
	if err != nil {
		return fail(err)
	}
	if err := sc.Validate(rebalance.CLILimits); err != nil {
		return fail(err)
	}
	res, err := rebalance.Run(ctx, sc, rebalance.CLILimits)
	if err != nil {
		return fail(err)
	}
	if *format == "table" {
		return printTable(io, sc, res)
	}
	enc := json.NewEncoder(io.out)
	if len(res.Items) <= 1000 {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(res)
}

// applyFlags layers the command-line overrides on a scenario.
func applyFlags(sc rebalance.Scenario, protocol string, n, partitions int, static bool, seed int64) (rebalance.Scenario, error) {
	var err error
	switch {
	case protocol != "":
		label := protocol
		if static {
			label += "+static"
		}
		if sc, err = rebalance.Variant(sc, label); err != nil {
			return sc, fmt.Errorf("--protocol: %w", err)
		}
	case static:
		sc.StaticMembership = true
	}
	if n < 0 || partitions < 0 {
		return sc, fmt.Errorf("--members and --partitions must be positive")
	}
	if n > 0 {
		prefix := "m"
		if len(sc.Members) > 0 {
			prefix = strings.TrimRightFunc(sc.Members[0], unicode.IsDigit)
		}
		if n > rebalance.CLILimits.MaxMembers {
			return sc, fmt.Errorf("--members: at most %d", rebalance.CLILimits.MaxMembers)
		}
		sc.Members = make([]string, n)
		for i := range sc.Members {
			sc.Members[i] = fmt.Sprintf("%s%d", prefix, i+1)
		}
		sc.InitialAssignment = nil
	}
	if partitions > 0 {
		if sc.Kind != "consumer" || len(sc.Topics) == 0 {
			return sc, fmt.Errorf("--partitions: only for consumer scenarios")
		}
		first := ""
		for t := range sc.Topics {
			if first == "" || t < first {
				first = t
			}
		}
		topics := map[string]int{}
		for t, v := range sc.Topics {
			topics[t] = v
		}
		topics[first] = partitions
		sc.Topics = topics
		sc.InitialAssignment = nil
	}
	if seed >= 0 {
		sc.Seed = seed
	}
	return sc, nil
}

func printTable(io stdio, sc rebalance.Scenario, r *rebalance.Result) error {
	static := ""
	if sc.StaticMembership {
		static = ", static members"
	}
	fmt.Fprintf(io.out, "%s group, protocol %s%s%s: %d members, %d items, %.0f s\n\n", sc.Kind, sc.Protocol,
		map[bool]string{true: " (" + sc.Assignor + ")", false: ""}[sc.Assignor != ""], static, len(sc.Members), len(r.Items), float64(sc.DurationMS)/1000)
	tw := tabwriter.NewWriter(io.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GEN\tSTART\tEND\tPROTOCOL\tASSIGNOR\tSTOP-THE-WORLD\tREVOKED\tADDED\tTRIGGER")
	for _, rd := range r.Rounds {
		fmt.Fprintf(tw, "%d\t%.3f s\t%.3f s\t%s\t%s\t%v\t%d\t%d\t%s\n", rd.Generation, float64(rd.StartMS)/1000, float64(rd.EndMS)/1000,
			rd.Protocol, rd.Assignor, rd.StopTheWorld, count(rd.Revoked), count(rd.Added), rd.Trigger)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	m := r.Metrics
	fmt.Fprintf(io.out, "\nrebalances %d (stop-the-world %d), availability %.4f, downtime %d item-ms, max pause %d ms\n",
		m.Rebalances, m.StopTheWorldRebalances, m.Availability, m.DowntimeItemMS, m.MaxPauseMS)
	fmt.Fprintf(io.out, "moved %d, wasted moves %d, time to stable %d ms, violations %d, reprocessed records %d\n", m.Moved, m.WastedMoves, m.TimeToStableMS, m.Violations, m.ReprocessedRecords)
	for _, ev := range r.Events {
		if ev.Reason != "" {
			fmt.Fprintf(io.out, "%.3f s: %s %s: %s\n", float64(ev.AtMS)/1000, ev.Member, ev.Type, ev.Reason)
		}
	}
	if len(r.Rounds) <= 50 {
		fmt.Fprintln(io.out)
		for _, line := range rebalance.Narrate(r) {
			fmt.Fprintln(io.out, "- "+line)
		}
	}
	for _, f := range r.InvariantFailures {
		fmt.Fprintln(io.out, "INVARIANT:", f)
	}
	return nil
}

func count(m map[string][]string) int {
	n := 0
	for _, l := range m {
		n += len(l)
	}
	return n
}
