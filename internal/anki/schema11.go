package anki

import (
	"encoding/json"
	"strconv"
	"time"
)

// schema11 is the layout of Anki's collection.anki2 (schema version 11): the tables and indexes
// an Anki of any version expects to find when it imports a legacy package.
const schema11 = `
CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null,
  scm integer not null, ver integer not null, dty integer not null, usn integer not null,
  ls integer not null, conf text not null, models text not null, decks text not null,
  dconf text not null, tags text not null);
CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null,
  mod integer not null, usn integer not null, tags text not null, flds text not null,
  sfld integer not null, csum integer not null, flags integer not null, data text not null);
CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null,
  ord integer not null, mod integer not null, usn integer not null, type integer not null,
  queue integer not null, due integer not null, ivl integer not null, factor integer not null,
  reps integer not null, lapses integer not null, left integer not null, odue integer not null,
  odid integer not null, flags integer not null, data text not null);
CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null,
  ease integer not null, ivl integer not null, lastIvl integer not null, factor integer not null,
  time integer not null, type integer not null);
CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
CREATE INDEX ix_notes_usn ON notes (usn);
CREATE INDEX ix_cards_usn ON cards (usn);
CREATE INDEX ix_revlog_usn ON revlog (usn);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_cards_sched ON cards (did, queue, due);
CREATE INDEX ix_revlog_cid ON revlog (cid);
CREATE INDEX ix_notes_csum ON notes (csum);
`

type obj = map[string]any

// collectionJSON is the col row's JSON columns: one Basic-like note type ("Rehearse": Front,
// Back), the Default deck plus one deck per topic, the default deck options and the collection
// settings.
func collectionJSON(now time.Time, decks map[string]int64, order []string) (models, decksJSON, dconf, conf string) {
	mod := now.Unix()
	field := func(name string, ord int) obj {
		return obj{"name": name, "ord": ord, "sticky": false, "rtl": false, "font": "Arial", "size": 20, "media": []any{}}
	}
	model := obj{
		"id": exportModelID, "name": "Rehearse", "type": 0, "mod": mod, "usn": -1, "sortf": 0,
		"did": exportDeckID0, "tags": []any{}, "vers": []any{},
		"flds": []any{field("Front", 0), field("Back", 1)},
		"tmpls": []any{obj{
			"name": "Card 1", "ord": 0, "qfmt": "{{Front}}", "afmt": "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}",
			"bqfmt": "", "bafmt": "", "did": nil, "bfont": "", "bsize": 0,
		}},
		"css":       ".card { font-family: arial; font-size: 20px; text-align: left; color: black; background-color: white; }\npre { white-space: pre-wrap; }",
		"latexPre":  "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
		"latexPost": "\\end{document}", "latexsvg": false,
		"req": []any{[]any{0, "any", []any{0}}},
	}
	deckObj := func(id int64, name string) obj {
		return obj{
			"id": id, "name": name, "mod": mod, "usn": -1, "desc": "", "dyn": 0, "conf": 1, "collapsed": false,
			"browserCollapsed": false, "extendNew": 0, "extendRev": 0,
			"lrnToday": []int{0, 0}, "revToday": []int{0, 0}, "newToday": []int{0, 0}, "timeToday": []int{0, 0},
		}
	}
	ds := obj{"1": deckObj(1, "Default")}
	for _, topic := range order {
		id := decks[topic]
		ds[strconv.FormatInt(id, 10)] = deckObj(id, "Rehearse::"+topic)
	}
	options := obj{"1": obj{
		"id": 1, "name": "Default", "mod": 0, "usn": 0, "maxTaken": 60, "autoplay": true, "timer": 0,
		"replayq": true, "dyn": false,
		"new":   obj{"bury": false, "delays": []float64{1, 10}, "initialFactor": 2500, "ints": []int{1, 4, 0}, "order": 1, "perDay": 20},
		"lapse": obj{"delays": []float64{10}, "leechAction": 1, "leechFails": 8, "minInt": 1, "mult": 0},
		"rev":   obj{"bury": false, "ease4": 1.3, "ivlFct": 1, "maxIvl": 36500, "perDay": 200, "hardFactor": 1.2},
	}}
	settings := obj{
		"nextPos": 1, "estTimes": true, "activeDecks": []int{1}, "sortType": "noteFld", "timeLim": 0,
		"sortBackwards": false, "addToCur": true, "curDeck": 1, "newSpread": 0, "dueCounts": true,
		"curModel": exportModelID, "collapseTime": 1200,
	}
	enc := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	return enc(obj{strconv.FormatInt(exportModelID, 10): model}), enc(ds), enc(options), enc(settings)
}
