// Command gendeck writes a deck of synthetic but realistic cards for the benchmarks: every
// section of docs/card-format.md, varied text, fenced code in several languages, a table on
// every other card, two or three follow-ups and, on most cards, a rebalance simulation like the
// real deck's. The output is deterministic for a given -seed.
//
//	go run ./bench/gendeck -n 1000 -o /tmp/deck
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

var topics = []string{"Rebalance fundamentals", "Eager rebalancing", "Cooperative rebalancing",
	"Static membership", "Kafka Connect", "Kafka Streams", "Assignors", "Liveness and timeouts",
	"Consumer callbacks and offsets", "KIP-848", "Operations", "Producers"}

var words = strings.Fields(`partition consumer group coordinator member leader heartbeat session
timeout rebalance assignment offset commit broker topic replica leader epoch generation
protocol cooperative eager static instance worker connector task stream thread standby
changelog state store lag throughput latency poll interval fetch batch record key value
idempotent transaction fencing zombie sticky range round-robin metadata join sync revoke
assign pause resume backoff retry quota controller quorum log segment compaction retention`)

var langs = []struct{ name, body string }{
	{"java", `Properties props = new Properties();
props.put(ConsumerConfig.GROUP_ID_CONFIG, "%s");
props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
    CooperativeStickyAssignor.class.getName());
props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, %d);
try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props)) {
    c.subscribe(List.of("%s"), new RebalanceListener());
    while (running) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(%d))) {
            process(r);
        }
        c.commitAsync();
    }
}`},
	{"go", `func consume(ctx context.Context, cl *kgo.Client) error {
	for {
		fetches := cl.PollFetches(ctx) // %s
		if err := fetches.Err0(); err != nil {
			return fmt.Errorf("poll: %%w", err)
		}
		fetches.EachRecord(func(r *kgo.Record) { handle(r, %d) })
		if err := cl.CommitUncommittedOffsets(ctx); err != nil {
			return err // %s
		}
		time.Sleep(%d * time.Millisecond)
	}
}`},
	{"properties", `group.id=%s
session.timeout.ms=%d
group.instance.id=%s-1
max.poll.interval.ms=%d
partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor`},
	{"bash", `kafka-consumer-groups.sh --bootstrap-server localhost:9092 \
  --describe --group %s --members --verbose
# wait %d ms, then look for %s in the coordinator log
grep -c "Preparing to rebalance" server.log | tail -n %d`},
	{"yaml", `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: %s
spec:
  replicas: %d
  template:
    spec:
      containers:
        - name: %s
          env:
            - {name: SESSION_TIMEOUT_MS, value: "%d"}`},
}

// sims are preset/compare pairs the real deck uses, so the load-time check runs real scenarios.
var sims = []string{
	"consumer-join\n  compare: [eager, cooperative]",
	"consumer-rolling-restart\n  compare: [eager, cooperative, consumer]",
	"consumer-crash\n  compare: [eager, cooperative]",
	"consumer-static-restart\n  compare: [cooperative, cooperative+static]",
	"consumer-scale-out\n  compare: [eager, cooperative]",
	"connect-worker-bounce\n  compare: [eager, incremental]",
}

type gen struct{ r *rand.Rand }

func (g gen) word() string { return words[g.r.IntN(len(words))] }

func (g gen) sentence(min, max int) string {
	n := min + g.r.IntN(max-min+1)
	w := make([]string, n)
	for i := range w {
		w[i] = g.word()
	}
	switch g.r.IntN(6) {
	case 0:
		w[g.r.IntN(n)] = "`" + g.word() + ".ms`"
	case 1:
		w[g.r.IntN(n)] = "**" + g.word() + "**"
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g gen) para(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = g.sentence(7, 16)
	}
	return strings.Join(s, " ")
}

// speech is a spoken answer: plain words only (no code, which `rehearse check` refuses in a
// spoken section) and at most max words, so it fits its clock at 150 words a minute.
func (g gen) speech(max int) string {
	var s []string
	for n := 0; ; {
		k := 7 + g.r.IntN(10)
		if n+k > max {
			break
		}
		w := make([]string, k)
		for i := range w {
			w[i] = g.word()
		}
		t := strings.Join(w, " ")
		s = append(s, strings.ToUpper(t[:1])+t[1:]+".")
		n += k
	}
	return strings.Join(s, " ")
}

func (g gen) bullets(n int) string {
	var b strings.Builder
	for range n {
		fmt.Fprintf(&b, "- %s\n", g.sentence(5, 12))
	}
	return b.String()
}

func (g gen) code() string {
	l := langs[g.r.IntN(len(langs))]
	var args []any
	for _, verb := range strings.Split(l.body, "%")[1:] {
		switch {
		case strings.HasPrefix(verb, "s"):
			args = append(args, g.word())
		case strings.HasPrefix(verb, "d"):
			args = append(args, 100+g.r.IntN(60000))
		}
	}
	return "```" + l.name + "\n" + fmt.Sprintf(l.body, args...) + "\n```\n"
}

func (g gen) table() string {
	var b strings.Builder
	b.WriteString("| setting | default | effect |\n|---|---|---|\n")
	for range 3 + g.r.IntN(3) {
		fmt.Fprintf(&b, "| `%s.%s.ms` | %d | %s |\n", g.word(), g.word(), 1000*(1+g.r.IntN(300)), g.sentence(4, 9))
	}
	return b.String()
}

func (g gen) card(i int) string {
	var b strings.Builder
	q := g.sentence(8, 14)
	q = strings.TrimSuffix(q, ".") + "?"
	fmt.Fprintf(&b, "---\nid: gen-%04d\nquestion: %q\ntopic: %s\ntags: [%s, %s]\n", i, q, topics[i%len(topics)], g.word(), g.word())
	if i%10 != 9 { // most real cards carry a simulation
		fmt.Fprintf(&b, "simulation:\n  preset: %s\n  caption: %q\n", sims[i%len(sims)], g.sentence(10, 20))
	}
	b.WriteString("---\n\n## Answer\n\n" + g.bullets(3+g.r.IntN(3)))
	b.WriteString("\n## Basics\n\n" + g.speech(50) + "\n")
	b.WriteString("\n## Solid answer\n\n" + g.speech(55) + "\n\n" + g.speech(45) + "\n")
	b.WriteString("\n## Go deeper\n\n")
	for l := 1; l <= 4; l++ {
		fmt.Fprintf(&b, "%d. %s\n", l, g.sentence(8, 16))
	}
	b.WriteString("\n## Explanation\n\n### " + strings.TrimSuffix(g.sentence(2, 4), ".") + "\n\n" + g.para(5) + "\n\n")
	b.WriteString(g.code() + "\n" + g.para(3) + "\n\n")
	if i%2 == 0 {
		b.WriteString("### " + strings.TrimSuffix(g.sentence(2, 4), ".") + "\n\n" + g.table() + "\n")
	}
	b.WriteString(g.bullets(3) + "\n" + g.para(4) + "\n\n" + g.para(4) + "\n")
	b.WriteString("\n## Follow-ups\n")
	for range 2 + g.r.IntN(2) {
		fmt.Fprintf(&b, "\n### %s?\n\n%s\n", strings.TrimSuffix(g.sentence(6, 10), "."), g.para(3))
	}
	b.WriteString("\n## Pitfalls\n\n" + g.bullets(2+g.r.IntN(3)))
	return b.String()
}

func main() {
	n := flag.Int("n", 1000, "number of cards")
	out := flag.String("o", "", "output directory (created; must not hold cards already)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: gendeck -n N -o DIR")
		os.Exit(2)
	}
	g := gen{rand.New(rand.NewPCG(*seed, 9))}
	for i := range *n {
		dir := filepath.Join(*out, fmt.Sprintf("t%02d", i%len(topics)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "gendeck:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("gen-%04d.md", i)), []byte(g.card(i)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gendeck:", err)
			os.Exit(1)
		}
	}
}
