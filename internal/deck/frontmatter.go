package deck

import (
	"bytes"
	"errors"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// splitFrontMatter separates "---" front matter from the markdown body. The front matter's
// first line is file line 2; bodyLine is the file line of the body's first line. ok is false when
// the file does not open with a closed front matter block; then the whole file is the body.
func splitFrontMatter(src []byte) (fm, body []byte, bodyLine int, ok bool) {
	first, _, found := bytes.Cut(src, []byte("\n"))
	if !found || !isDelimiter(first, false) {
		return nil, src, 1, false
	}
	start := len(first) + 1
	for off, line := start, 2; off < len(src); line++ {
		l, _, found := bytes.Cut(src[off:], []byte("\n"))
		if isDelimiter(l, true) {
			end := off + len(l)
			if found {
				end++
			}
			return src[start:off], src[end:], line + 1, true
		}
		off += len(l) + 1
	}
	return nil, src, 1, false
}

func isDelimiter(l []byte, closing bool) bool {
	t := string(bytes.TrimRight(l, " \t"))
	return t == "---" || closing && t == "..."
}

// MaxFrontMatterBytes caps a card's front matter: the bundled cards' is under 1.1 KiB, and all
// of it is parsed, and its simulation overrides decoded, before anything else is checked.
const MaxFrontMatterBytes = 8 << 10

// frontMatterKeys is the documented set, in the order they are usually written.
var frontMatterKeys = []string{"id", "question", "topic", "tags", "timing", "simulation"}

// parseFrontMatter fills the card's front-matter fields, reporting problems at file lines
// (offset is the file line of the YAML's first line).
func parseFrontMatter(e *errs, src []byte, offset int, c *Card) {
	if len(src) > MaxFrontMatterBytes {
		e.add(offset, "front matter: %d KiB; the limit is %d KiB (the question, topic, tags, timing and simulation fit in far less)", (len(src)+1023)>>10, MaxFrontMatterBytes>>10)
		return
	}

	c.Timing = Timing{DefaultBasics, DefaultSolid, DefaultDeeper}
	at := func(n ast.Node) int { return nodeLineYAML(n) + offset - 1 }

	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey()) // duplicates are reported below, with both lines
	if err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil {
			e.add(ye.GetToken().Position.Line+offset-1, "front matter: %s", ye.GetMessage())
		} else {
			e.add(offset, "front matter: %v", err)
		}
		return
	}
	if line, ok := firstAlias(f); ok {
		// An alias is expanded wherever it is used, so a few lines of nested aliases can stand
		// for billions of values; a card has no need for them.
		e.add(line+offset-1, "front matter: YAML aliases (*name) are not allowed in cards: write the value out")
		return
	}
	var body ast.Node
	if len(f.Docs) > 0 {
		body = f.Docs[0].Body
	}
	if len(f.Docs) > 1 {
		e.add(offset, "front matter: more than one YAML document")
	}
	values, ok := mapValues(body)
	if !ok {
		e.add(offset, "front matter must be a mapping of keys to values (id: ..., question: ...)")
		return
	}

	seen := map[string]int{}
	for _, mv := range values {
		key, line := mapKey(mv), at(mv.Key)
		if first, dup := seen[key]; dup {
			e.add(line, "duplicate front matter key %q (first at line %d)", key, first)
			continue
		}
		seen[key] = line
		switch key {
		case "id":
			if s, ok := idString(e, mv.Value, line); ok {
				if !validSlug(s) {
					e.add(line, "id %q must be lower-case letters, digits and single hyphens, like connect-eager-rebalancing", s)
				}
				c.ID, c.idLine = s, line
			}
		case "question":
			c.Question, _ = yamlString(e, mv.Value, "question", line)
		case "topic":
			c.Topic, _ = yamlString(e, mv.Value, "topic", line)
		case "tags":
			c.Tags = parseTags(e, mv.Value, line, at)
		case "timing":
			parseTiming(e, mv.Value, line, at, &c.Timing)
		case "simulation":
			c.Sim = parseSimulation(e, mv.Value, line, at)
		default:
			e.add(line, "unknown front matter key %q (want one of: %s)", key, strings.Join(frontMatterKeys, ", "))
		}
	}
	for _, k := range []string{"id", "question", "topic"} {
		if _, ok := seen[k]; !ok {
			e.add(offset-1, "front matter: missing %q", k)
		}
	}
}

func parseTags(e *errs, n ast.Node, line int, at func(ast.Node) int) []string {
	seq, ok := unwrap(n).(*ast.SequenceNode)
	if !ok {
		if _, null := unwrap(n).(*ast.NullNode); null {
			return nil
		}
		e.add(line, "tags must be a list, like [kafka, consumer]")
		return nil
	}
	var tags []string
	for _, v := range seq.Values {
		s, ok := yamlString(e, v, "tag", at(v))
		if !ok {
			continue
		}
		if !validTag(s) {
			e.add(at(v), "tag %q must be a lower-case word (letters, digits, hyphens)", s)
			continue
		}
		tags = append(tags, s)
	}
	return tags
}

func parseTiming(e *errs, n ast.Node, line int, at func(ast.Node) int, t *Timing) {
	values, ok := mapValues(n)
	if !ok {
		e.add(line, "timing must be a mapping, like {basics: 20s, solid: 40s, deeper: 90s}")
		return
	}
	for _, mv := range values {
		key, kl := mapKey(mv), at(mv.Key)
		dst := timingField(t, key)
		if dst == nil {
			e.add(kl, "unknown timing key %q (want basics, solid or deeper)", key)
			continue
		}
		s, ok := unwrap(mv.Value).(*ast.StringNode)
		if !ok {
			e.add(kl, "timing.%s must be a duration like 20s or 1m30s", key)
			continue
		}
		d, err := time.ParseDuration(s.Value)
		if err != nil || d <= 0 {
			e.add(kl, "timing.%s: %q is not a positive duration like 20s or 1m30s", key, s.Value)
			continue
		}
		*dst = d
	}
}

func parseSimulation(e *errs, n ast.Node, line int, at func(ast.Node) int) *Simulation {
	values, ok := mapValues(n)
	if !ok {
		e.add(line, "simulation must be a mapping with preset, compare and caption")
		return nil
	}
	sim := &Simulation{Line: line}
	seen := map[string]bool{}
	for _, mv := range values {
		key, kl := mapKey(mv), at(mv.Key)
		seen[key] = true
		switch key {
		case "preset":
			sim.Preset, _ = yamlString(e, mv.Value, "simulation.preset", kl)
		case "caption":
			sim.Caption, _ = yamlString(e, mv.Value, "simulation.caption", kl)
		case "compare":
			seq, ok := unwrap(mv.Value).(*ast.SequenceNode)
			if !ok || len(seq.Values) == 0 {
				e.add(kl, "simulation.compare must be a non-empty list of variants, like [eager, cooperative]")
				continue
			}
			for _, v := range seq.Values {
				if s, ok := yamlString(e, v, "simulation.compare entry", at(v)); ok {
					sim.Compare = append(sim.Compare, s)
				}
			}
		case "overrides":
			if _, ok := mapValues(mv.Value); !ok {
				e.add(kl, "simulation.overrides must be a mapping of scenario fields")
				continue
			}
			m := map[string]any{}
			if err := yaml.NodeToValue(mv.Value, &m); err != nil {
				e.add(kl, "simulation.overrides: %v", err)
				continue
			}
			sim.Overrides = m
		case "expect":
			sim.Expect = parseExpect(e, mv.Value, kl, at)
		default:
			e.add(kl, "unknown simulation key %q (want preset, compare, caption, overrides or expect)", key)
		}
	}
	for _, k := range []string{"preset", "compare", "caption"} {
		if !seen[k] {
			e.add(line, "simulation: missing %q", k)
		}
	}
	checkVariants(e, sim)
	return sim
}

// idString accepts an unquoted all-digit id such as 2024, which YAML reads as a number.
func idString(e *errs, n ast.Node, line int) (string, bool) {
	switch v := unwrap(n).(type) {
	case *ast.IntegerNode:
		return v.Token.Value, true
	case *ast.FloatNode:
		return v.Token.Value, true
	}
	return yamlString(e, n, "id", line)
}

// yamlString returns a scalar string value, reporting any other type.
func yamlString(e *errs, n ast.Node, what string, line int) (string, bool) {
	var s string
	switch v := unwrap(n).(type) {
	case *ast.StringNode:
		s = v.Value
	case *ast.LiteralNode:
		s = v.Value.Value
	case nil, *ast.NullNode:
		e.add(line, "%s is empty", what)
		return "", false
	default:
		e.add(line, "%s must be text, not %s (quote it)", what, strings.ToLower(unwrap(n).Type().String()))
		return "", false
	}
	s = strings.TrimSpace(s)
	if s == "" {
		e.add(line, "%s is empty", what)
		return "", false
	}
	return s, true
}

// firstAlias finds the first YAML alias in f, reporting its line within the YAML.
func firstAlias(f *ast.File) (int, bool) {
	var found ast.Node
	for _, d := range f.Docs {
		ast.Walk(aliasFinder{&found}, d)
		if found != nil {
			return nodeLineYAML(found), true
		}
	}
	return 0, false
}

type aliasFinder struct{ found *ast.Node }

func (v aliasFinder) Visit(n ast.Node) ast.Visitor {
	if *v.found != nil {
		return nil
	}
	if _, ok := n.(*ast.AliasNode); ok {
		*v.found = n
		return nil
	}
	return v
}

// unwrap looks through tags and anchors to the value node.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		default:
			return n
		}
	}
}

func mapValues(n ast.Node) ([]*ast.MappingValueNode, bool) {
	switch v := unwrap(n).(type) {
	case *ast.MappingNode:
		return v.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{v}, true
	}
	return nil, false
}

func mapKey(mv *ast.MappingValueNode) string {
	if s, ok := mv.Key.(*ast.StringNode); ok {
		return s.Value
	}
	if t := mv.Key.GetToken(); t != nil {
		return t.Value
	}
	return ""
}

func nodeLineYAML(n ast.Node) int {
	if n != nil {
		if t := n.GetToken(); t != nil && t.Position != nil {
			return t.Position.Line
		}
	}
	return 1
}

// validSlug reports whether s is lower-case letters and digits joined by single hyphens.
func validSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// validTag allows the slug alphabet; tags are filters, so they stay simple.
func validTag(s string) bool { return validSlug(s) }

// timingField is the field of t that a timing key sets, or nil for an unknown key.
func timingField(t *Timing, key string) *time.Duration {
	switch key {
	case "basics":
		return &t.Basics
	case "solid":
		return &t.Solid
	case "deeper":
		return &t.Deeper
	}
	return nil
}
