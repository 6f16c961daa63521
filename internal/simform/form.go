// Package simform is the rebalance lab's form and a card's figure as the views show them: the
// lab form read from a query and turned into validated scenarios (each message at its field),
// a scenario turned back into the form, the canonical query of a short link, and the figures
// built from the simulator's results. It knows nothing of HTTP; the simulator is passed in.
package simform

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/views"
)

const (
	labMaxEventRows = 20 // rows read from a query; the engine's own event limit still applies
	labMaxConnector = 50
)

// FromQuery reads the lab form from its query.
func FromQuery(q url.Values) views.SimForm {
	f := views.SimForm{
		Kind: q.Get("kind"), Protocols: map[string]bool{}, Static: q.Get("static") != "",
		Members: q.Get("members"), Partitions: q.Get("partitions"), Connectors: q.Get("connectors"), Tasks: q.Get("tasks"),
		Session: q.Get("session"), Heartbeat: q.Get("heartbeat"), Rebalance: q.Get("rebalance"),
		Initial: q.Get("initial"), Scheduled: q.Get("scheduled"), Duration: q.Get("duration"),
		Processing: q.Get("processing"), Revoke: q.Get("revoke"), Start: q.Get("start"),
	}
	for _, p := range q["p"] {
		f.Protocols[p] = true
	}
	// Rows keep the index they were submitted with, so a message finds its field; a row set to
	// "(none)" is dropped, and one blank row follows for adding an event without script.
	next := 0
	for i := range labMaxEventRows {
		k := func(n string) string { return q.Get(fmt.Sprintf("e%d%s", i, n)) }
		if k("type") == "" {
			continue
		}
		f.Events = append(f.Events, views.SimEventRow{N: i, Type: k("type"), At: k("at"), Member: k("member"), Down: k("down"), Interval: k("interval"), Count: k("count"), Value: k("value")})
		next = i + 1
	}
	if next < labMaxEventRows {
		f.Events = append(f.Events, views.SimEventRow{N: next})
	}
	return f
}

// FromScenario fills the form from a preset. The form names topics and connectors itself
// (orders; c1, c2, …), so a preset's config change is re-aimed at the first of them.
func FromScenario(sc rebalance.Scenario) views.SimForm {
	f := views.SimForm{Kind: sc.Kind, Protocols: map[string]bool{"eager": true}, Static: sc.StaticMembership,
		Members: strconv.Itoa(len(sc.Members)), Duration: secStr(sc.DurationMS),
		Revoke: secPtr(sc.Config.RevokeMS), Start: secPtr(sc.Config.StartMS)}
	if sc.Kind != "connect" {
		f.Processing = secPtr(sc.Config.ProcessingMS)
	}
	if sc.Kind == "connect" {
		f.Protocols["incremental"] = true
		f.Connectors = strconv.Itoa(len(sc.Connectors))
		for _, n := range sc.Connectors {
			f.Tasks = strconv.Itoa(max(n, atoi(f.Tasks)))
		}
	} else {
		f.Protocols["cooperative"] = true
		for _, n := range sc.Topics {
			f.Partitions = strconv.Itoa(n + atoi(f.Partitions))
		}
	}
	for _, e := range sc.Events {
		if len(f.Events) == labMaxEventRows-1 {
			break
		}
		row := views.SimEventRow{N: len(f.Events), Type: e.Type, At: secStr(e.AtMS), Member: e.Member, Down: secOpt(e.DownMS), Interval: secOpt(e.IntervalMS)}
		if e.Count > 0 {
			row.Count = strconv.Itoa(e.Count)
		}
		switch e.Type {
		case "add_partitions":
			row.Type, row.Value = "config", strconv.Itoa(e.Partitions)
		case "set_tasks":
			row.Type, row.Value = "config", strconv.Itoa(e.Tasks)
		case "slow_poll":
			row.Value = secStr(e.DurationMS)
		}
		f.Events = append(f.Events, row)
	}
	f.Events = append(f.Events, views.SimEventRow{N: len(f.Events)})
	return f
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func secStr(ms int64) string { return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) }

func secPtr(ms *int64) string {
	if ms == nil {
		return ""
	}
	return secStr(*ms)
}

func secOpt(ms int64) string {
	if ms == 0 {
		return ""
	}
	return secStr(ms)
}

// formErrs collects field messages, first one per field wins.
type formErrs map[string]string

func (e formErrs) add(field, msg string) {
	if _, ok := e[field]; !ok {
		e[field] = msg
	}
}

// Scenarios builds one scenario per chosen protocol, validated against the web limits.
// Errors name the form field they belong to.
func Scenarios(f views.SimForm, lim rebalance.Limits) ([]string, []rebalance.Scenario, *views.FormError) {
	errs := formErrs{}
	intField := func(name, v string, lo, hi int, required bool) int {
		v = strings.TrimSpace(v)
		if v == "" {
			if required {
				errs.add(name, "Required.")
			}
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			errs.add(name, fmt.Sprintf("Enter a whole number from %d to %d.", lo, hi))
		}
		return n
	}
	// msField reads seconds into milliseconds; empty is nil (the default applies).
	msField := func(name, v string, hiSec float64) *int64 {
		v = strings.TrimSpace(v)
		if v == "" {
			return nil
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || x < 0 || x > hiSec {
			errs.add(name, fmt.Sprintf("Enter seconds from 0 to %g.", hiSec))
			return nil
		}
		ms := int64(math.Round(x * 1000))
		return &ms
	}
	sc := rebalance.Scenario{Kind: f.Kind, Seed: 1}
	prefix := "m"
	switch f.Kind {
	case "consumer":
		sc.Topics = map[string]int{"orders": intField("partitions", f.Partitions, 1, lim.MaxItems, true)}
	case "connect":
		prefix = "w"
		n := intField("connectors", f.Connectors, 1, labMaxConnector, true)
		t := intField("tasks", f.Tasks, 0, lim.MaxItems, true)
		sc.Connectors = map[string]int{}
		for i := 1; i <= n && i <= labMaxConnector; i++ {
			sc.Connectors[fmt.Sprintf("c%d", i)] = t
		}
		if f.Static {
			errs.add("static", "Static membership applies to consumer groups only.")
		}
	default:
		errs.add("kind", "Choose consumer group or Kafka Connect.")
	}
	n := intField("members", f.Members, 0, lim.MaxMembers, true)
	for i := 1; i <= n && i <= lim.MaxMembers; i++ {
		sc.Members = append(sc.Members, fmt.Sprintf("%s%d", prefix, i))
	}
	maxSec := float64(lim.MaxDurationMS) / 1000
	if d := msField("duration", f.Duration, maxSec); d != nil {
		if *d == 0 {
			errs.add("duration", "Must be more than 0 seconds.")
		}
		sc.DurationMS = *d
	}
	sc.Config = rebalance.Config{
		SessionTimeoutMS: msField("session", f.Session, 3600), HeartbeatIntervalMS: msField("heartbeat", f.Heartbeat, 3600),
		RebalanceTimeoutMS: msField("rebalance", f.Rebalance, 3600), InitialRebalanceDelayMS: msField("initial", f.Initial, 3600),
		ScheduledRebalanceMaxDelayMS: msField("scheduled", f.Scheduled, 24*3600),
		RevokeMS:                     msField("revoke", f.Revoke, 3600), StartMS: msField("start", f.Start, 3600),
	}
	if p := msField("processing", f.Processing, rebalance.MaxProcessingMS/1000); p != nil && f.Kind == "consumer" {
		sc.Config.ProcessingMS = p
	}
	rowOf := map[int]int{} // scenario event index → form row
	for _, e := range f.Events {
		if e.Type == "" {
			continue
		}
		i := e.N
		uses := views.EventFieldUse(e.Type) // fields that do not apply are ignored, not errors
		if !uses["member"] {
			e.Member = ""
		}
		for field, v := range map[string]*string{"down": &e.Down, "interval": &e.Interval, "count": &e.Count, "value": &e.Value} {
			if !uses[field] {
				*v = ""
			}
		}
		name := func(s string) string { return fmt.Sprintf("e%d%s", i, s) }
		ev := rebalance.Event{Type: e.Type, Member: strings.TrimSpace(e.Member)}
		if at := msField(name("at"), e.At, maxSec); at != nil {
			ev.AtMS = *at
		} else if strings.TrimSpace(e.At) == "" {
			errs.add(name("at"), "Required: when it happens, in seconds.")
		}
		if d := msField(name("down"), e.Down, maxSec); d != nil {
			ev.DownMS = *d
		}
		if d := msField(name("interval"), e.Interval, maxSec); d != nil {
			ev.IntervalMS = *d
		}
		ev.Count = intField(name("count"), e.Count, 0, 1000, false)
		switch e.Type {
		case "config":
			v := intField(name("value"), e.Value, 0, lim.MaxItems, true)
			if f.Kind == "connect" {
				ev.Type, ev.Connector, ev.Tasks = "set_tasks", "c1", v
			} else {
				ev.Type, ev.Topic, ev.Partitions = "add_partitions", "orders", v
			}
		case "slow_poll":
			if d := msField(name("value"), e.Value, maxSec); d != nil {
				ev.DurationMS = *d
			} else {
				errs.add(name("value"), "Required: how long the poll loop is stuck, in seconds.")
			}
		}
		rowOf[len(sc.Events)] = i
		sc.Events = append(sc.Events, ev)
	}
	var labels []string
	for _, p := range []string{"eager", "cooperative", "consumer", "incremental"} {
		if !f.Protocols[p] {
			continue
		}
		if fits := map[string]bool{"consumer": p != "incremental", "connect": p == "eager" || p == "incremental"}[f.Kind]; !fits {
			errs.add("p", fmt.Sprintf("%s does not apply to %s; pick protocols for this kind.", p, kindName(f.Kind)))
			continue
		}
		if f.Static && f.Kind == "consumer" {
			p += "+static"
		}
		labels = append(labels, p)
	}
	if len(labels) == 0 {
		errs.add("p", "Choose at least one protocol.")
	}
	if len(errs) > 0 {
		return nil, nil, &views.FormError{Form: "Some values need fixing; see the messages below.", Fields: errs}
	}
	var scs []rebalance.Scenario
	for _, l := range labels {
		v, err := rebalance.Variant(sc, l)
		if err == nil {
			err = v.Validate(lim)
		}
		if err != nil {
			return nil, nil, engineFormError(err, rowOf)
		}
		scs = append(scs, v)
	}
	return labels, scs, nil
}

func kindName(k string) string {
	if k == "connect" {
		return "Kafka Connect"
	}
	return "a consumer group"
}

var eventFieldRE = regexp.MustCompile(`^events\[(\d+)\]\.(\w+)$`)

// engineFormError maps the engine's JSON field path to the form field that produced it.
func engineFormError(err error, rowOf map[int]int) *views.FormError {
	var fe *rebalance.FieldError
	if !errors.As(err, &fe) {
		return &views.FormError{Form: err.Error()}
	}
	msg := strings.ToUpper(fe.Msg[:1]) + fe.Msg[1:] + "."
	field := ""
	if m := eventFieldRE.FindStringSubmatch(fe.Field); m != nil {
		i, _ := strconv.Atoi(m[1])
		sub := map[string]string{"at_ms": "at", "type": "type", "member": "member", "down_ms": "down", "interval_ms": "interval",
			"count": "count", "duration_ms": "value", "partitions": "value", "tasks": "value", "topic": "type", "connector": "type"}[m[2]]
		if row, ok := rowOf[i]; ok && sub != "" {
			field = fmt.Sprintf("e%d%s", row, sub)
		}
	} else {
		head, _, _ := strings.Cut(fe.Field, ".")
		head, _, _ = strings.Cut(head, "[")
		field = map[string]string{"kind": "kind", "protocol": "p", "assignor": "p", "topics": "partitions", "connectors": "connectors",
			"members": "members", "duration_ms": "duration", "static_membership": "static"}[head]
		if head == "config" {
			_, sub, _ := strings.Cut(fe.Field, ".")
			field = map[string]string{"session_timeout_ms": "session", "heartbeat_interval_ms": "heartbeat", "rebalance_timeout_ms": "rebalance",
				"initial_rebalance_delay_ms": "initial", "scheduled_rebalance_max_delay_ms": "scheduled",
				"processing_ms": "processing", "revoke_ms": "revoke", "start_ms": "start"}[sub]
		}
	}
	if field == "" {
		return &views.FormError{Form: fe.Error()}
	}
	return &views.FormError{Form: "Some values need fixing; see the messages below.", Fields: map[string]string{field: msg}}
}

// ShareQuery is the form as a canonical query (sorted keys, empty fields left out), plus the
// scrubber's moment.
func ShareQuery(f views.SimForm, t string) url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			q.Set(k, v)
		}
	}
	set("kind", f.Kind)
	for _, p := range []string{"eager", "cooperative", "consumer", "incremental"} {
		if f.Protocols[p] {
			q.Add("p", p)
		}
	}
	if f.Static {
		q.Set("static", "1")
	}
	for k, v := range map[string]string{"members": f.Members, "partitions": f.Partitions, "connectors": f.Connectors, "tasks": f.Tasks,
		"session": f.Session, "heartbeat": f.Heartbeat, "rebalance": f.Rebalance, "initial": f.Initial, "scheduled": f.Scheduled, "duration": f.Duration,
		"processing": f.Processing, "revoke": f.Revoke, "start": f.Start} {
		set(k, v)
	}
	n := 0 // events renumbered from 0 in order
	for _, e := range f.Events {
		if e.Type == "" {
			continue
		}
		for k, v := range map[string]string{"type": e.Type, "at": e.At, "member": e.Member, "down": e.Down, "interval": e.Interval, "count": e.Count, "value": e.Value} {
			set(fmt.Sprintf("e%d%s", n, k), v)
		}
		n++
	}
	set("t", t)
	return q
}

// ShareID is the first 64 bits of the query's SHA-256, in hex.
func ShareID(query string) string {
	sum := sha256.Sum256([]byte(query))
	return hex.EncodeToString(sum[:8])
}
