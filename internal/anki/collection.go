package anki

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"modernc.org/sqlite"
)

// Anki's newer tables declare their name columns COLLATE unicase, its own case-insensitive
// order; SQLite refuses to read a WITHOUT ROWID table (templates, fields) whose collation it
// does not know, so one is registered for every connection the driver opens.
func init() {
	sqlite.MustRegisterCollationUtf8("unicase", func(a, b string) int {
		return strings.Compare(strings.ToLower(a), strings.ToLower(b))
	})
}

// Collection schemas this reader knows: 11 (collection.anki2 and .anki21, note types and decks
// as JSON in the col row) and 14 to 18 (note types, templates and decks in tables of their own;
// collection.anki21b is 18).
const (
	schemaLegacy    = 11
	schemaTablesMin = 14
	schemaLatest    = 18
	maxRevlog       = 2_000_000
)

// readCollection reads the notes, cards and review log of the collection file at path.
func readCollection(ctx context.Context, path string, lim Limits) (*Package, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "query_only(1)")
	q.Add("_pragma", "trusted_schema(0)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)

	var ver int
	if err := db.QueryRowContext(ctx, `SELECT ver FROM col`).Scan(&ver); err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	if ver != schemaLegacy && (ver < schemaTablesMin || ver > schemaLatest) {
		return nil, refuse("unknown Anki collection schema %d (this reader knows 11 and 14 to 18)", ver)
	}
	tables := []string{"col", "notes", "cards", "revlog"}
	if ver >= schemaTablesMin {
		tables = append(tables, "notetypes", "templates", "decks")
	}
	// A view or trigger in place of a table could make a read run forever; only tables pass.
	for _, t := range tables {
		var typ string
		err := db.QueryRowContext(ctx, `SELECT type FROM sqlite_master WHERE name = ?`, t).Scan(&typ)
		if err != nil || typ != "table" {
			return nil, refuse("not an Anki collection: %s is not a table", t)
		}
	}

	r := &collReader{ctx: ctx, db: db, lim: lim}
	if ver == schemaLegacy {
		err = r.legacyTypes()
	} else {
		err = r.tableTypes()
	}
	if err != nil {
		return nil, err
	}
	p := &Package{}
	if p.Notes, err = r.notes(); err != nil {
		return nil, err
	}
	if p.Cards, err = r.cards(); err != nil {
		return nil, err
	}
	if p.Revlog, err = r.revlog(); err != nil {
		return nil, err
	}
	return p, nil
}

type noteType struct {
	name      string
	kind      Kind
	templates int
}

type collReader struct {
	ctx   context.Context
	db    *sql.DB
	lim   Limits
	types map[int64]noteType
	decks map[int64]string
}

// legacyTypes reads schema 11's note types and decks, JSON objects keyed by id in the col row.
func (r *collReader) legacyTypes() error {
	var models, decks string
	if err := r.db.QueryRowContext(r.ctx, `SELECT models, decks FROM col`).Scan(&models, &decks); err != nil {
		return refuse("not an Anki collection: %s", firstLine(err))
	}
	var ms map[string]struct {
		Name  string            `json:"name"`
		Type  int               `json:"type"`
		Tmpls []json.RawMessage `json:"tmpls"`
	}
	if err := json.Unmarshal([]byte(models), &ms); err != nil {
		return refuse("not an Anki collection: unreadable note types (%v)", err)
	}
	var ds map[string]struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(decks), &ds); err != nil {
		return refuse("not an Anki collection: unreadable decks (%v)", err)
	}
	r.types, r.decks = map[int64]noteType{}, map[int64]string{}
	for k, m := range ms {
		id, _ := strconv.ParseInt(k, 10, 64)
		kind := Standard
		if m.Type == 1 {
			kind = Cloze
		}
		r.types[id] = noteType{name: m.Name, kind: kind, templates: len(m.Tmpls)}
	}
	for k, d := range ds {
		id, _ := strconv.ParseInt(k, 10, 64)
		r.decks[id] = d.Name
	}
	return nil
}

// tableTypes reads the note types, their template counts and the decks of schemas 14-18. A
// note type's kind is field 1 of its config protobuf; deck levels are separated by \x1f.
func (r *collReader) tableTypes() error {
	r.types, r.decks = map[int64]noteType{}, map[int64]string{}
	rows, err := r.db.QueryContext(r.ctx, `SELECT id, name, config FROM notetypes`)
	if err != nil {
		return refuse("not an Anki collection: %s", firstLine(err))
	}
	for rows.Next() {
		var id int64
		var name string
		var config []byte
		if err := rows.Scan(&id, &name, &config); err != nil {
			rows.Close()
			return refuse("not an Anki collection: %s", firstLine(err))
		}
		k, err := protoVarintField(config, 1)
		if err != nil {
			rows.Close()
			return refuse("not an Anki collection: note type %q has an unreadable config", name)
		}
		kind := Standard
		if k == 1 {
			kind = Cloze
		}
		r.types[id] = noteType{name: name, kind: kind}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return refuse("not an Anki collection: %s", firstLine(err))
	}
	rows, err = r.db.QueryContext(r.ctx, `SELECT ntid FROM templates`)
	if err != nil {
		return refuse("not an Anki collection: %s", firstLine(err))
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err == nil {
			if t, ok := r.types[id]; ok {
				t.templates++
				r.types[id] = t
			}
		}
	}
	rows.Close()
	rows, err = r.db.QueryContext(r.ctx, `SELECT id, name FROM decks`)
	if err != nil {
		return refuse("not an Anki collection: %s", firstLine(err))
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err == nil {
			r.decks[id] = strings.ReplaceAll(name, "\x1f", "::")
		}
	}
	return rows.Err()
}

func (r *collReader) notes() ([]Note, error) {
	var count int
	if err := r.db.QueryRowContext(r.ctx, `SELECT count(*) FROM notes`).Scan(&count); err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	if count > r.lim.MaxNotes {
		return nil, refuse("refused: the package holds %d notes (at most %d)", count, r.lim.MaxNotes)
	}
	// The length is checked in SQL first, so a huge field is refused before it is read.
	var big int64
	if err := r.db.QueryRowContext(r.ctx, `SELECT id FROM notes WHERE length(CAST(flds AS BLOB)) > ? LIMIT 1`,
		r.lim.MaxField*4).Scan(&big); err == nil {
		return nil, refuse("refused: note %d is larger than %d KiB", big, r.lim.MaxField*4>>10)
	}
	rows, err := r.db.QueryContext(r.ctx, `SELECT id, mid, tags, flds FROM notes ORDER BY id`)
	if err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	defer rows.Close()
	var out []Note
	for rows.Next() {
		var n Note
		var mid int64
		var tags, flds string
		if err := rows.Scan(&n.ID, &mid, &tags, &flds); err != nil {
			return nil, refuse("not an Anki collection: %s", firstLine(err))
		}
		t, ok := r.types[mid]
		if !ok {
			return nil, refuse("not an Anki collection: note %d has an unknown note type %d", n.ID, mid)
		}
		n.Type, n.Kind, n.Templates = t.name, t.kind, t.templates
		n.Fields = strings.Split(flds, "\x1f")
		for i, f := range n.Fields {
			if len(f) > r.lim.MaxField {
				return nil, refuse("refused: field %d of note %d is %d KiB (at most %d KiB)", i+1, n.ID, len(f)>>10, r.lim.MaxField>>10)
			}
		}
		n.Tags = strings.Fields(tags)
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	return out, nil
}

func (r *collReader) cards() ([]Card, error) {
	// A card in a filtered deck keeps its home deck in odid.
	rows, err := r.db.QueryContext(r.ctx, `SELECT id, nid, ord, CASE WHEN odid != 0 THEN odid ELSE did END, queue FROM cards ORDER BY nid, ord LIMIT ?`,
		r.lim.MaxNotes*8)
	if err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	defer rows.Close()
	var out []Card
	for rows.Next() {
		var c Card
		var did int64
		var queue int
		if err := rows.Scan(&c.ID, &c.NoteID, &c.Ord, &did, &queue); err != nil {
			return nil, refuse("not an Anki collection: %s", firstLine(err))
		}
		c.Deck, c.Suspended = r.decks[did], queue == -1
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	return out, nil
}

func (r *collReader) revlog() ([]Review, error) {
	rows, err := r.db.QueryContext(r.ctx, `SELECT id, cid, ease, type, factor, time FROM revlog ORDER BY cid, id LIMIT ?`, maxRevlog+1)
	if err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	defer rows.Close()
	var out []Review
	for rows.Next() {
		var v Review
		if err := rows.Scan(&v.ID, &v.CardID, &v.Ease, &v.Kind, &v.Factor, &v.TookMS); err != nil {
			return nil, refuse("not an Anki collection: %s", firstLine(err))
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, refuse("not an Anki collection: %s", firstLine(err))
	}
	if len(out) > maxRevlog {
		return nil, refuse("refused: the review log holds more than %d entries", maxRevlog)
	}
	return out, nil
}

// firstLine keeps an error message to one line.
func firstLine(err error) string {
	s, _, _ := strings.Cut(fmt.Sprint(err), "\n")
	return s
}
