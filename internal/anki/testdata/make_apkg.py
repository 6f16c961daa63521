#!/usr/bin/env python3
"""Writes an Anki package with Python's sqlite3 and zipfile, independently of Rehearse's own
writer, for the reader's tests.

usage: make_apkg.py OUT.apkg anki2|anki21|anki21b

The collection follows Anki's schema 11 (collection.anki2 / .anki21: note types and decks as
JSON in the col row) or schema 18 (collection.anki21b: notetypes, templates and decks tables,
zstd-compressed with the zstd tool, media listed as a protobuf MediaEntries).
"""
import json, os, sqlite3, subprocess, sys, tempfile, zipfile

out, fmt = sys.argv[1], sys.argv[2]
DAY = 86400 * 1000
T0 = 1_700_000_000_000  # 2023-11-14T22:13:20Z, ms

BASIC, REVERSED, CLOZE = 1001, 1002, 1003
DECK = 2001
notes = [
    # id, note type, fields, tags
    (1, BASIC, ['What does <b>acks=all</b> mean?',
                '<div>The leader waits for <i>all</i> in-sync replicas.</div>'
                '<ul><li>durable</li><li>slower</li></ul>'
                '<pre>props.put("acks", "all");\nprops.put("retries", 3);</pre>'
                'See <a href="https://kafka.apache.org/documentation/">the docs</a>.<br>'
                '<img src="diagram.png"><script>alert(1)</script>'],
     ' kafka Producer::Acks '),
    (2, BASIC, ['Name the <code>__consumer_offsets</code> topic&#39;s purpose',
                'It stores committed offsets.<br>## not a heading<br>- not a list'], ' kafka '),
    (3, REVERSED, ['ISR', 'in-sync replicas'], ' glossary '),
    (4, CLOZE, ['A {{c1::consumer group}} shares {{c2::partitions::what}}.', 'Extra <i>note</i>'], ''),
]
cards = [  # id, note, ord, queue
    (11, 1, 0, 2), (21, 2, 0, 0), (31, 3, 0, 0), (32, 3, 1, -1), (41, 4, 0, 0), (42, 4, 1, 0),
]
revlog = [  # id (ms), card, ease, type, factor
    (T0 - 40 * DAY, 11, 3, 0, 0),          # learning run that a reset discards
    (T0 - 39 * DAY, 11, 3, 1, 2500),
    (T0 - 30 * DAY, 11, 0, 4, 0),          # reset (forget)
    (T0 - 20 * DAY, 11, 1, 0, 0),          # the last learning run starts here
    (T0 - 20 * DAY + 600_000, 11, 3, 0, 0),
    (T0 - 19 * DAY, 11, 3, 1, 2500),
    (T0 - 15 * DAY, 11, 2, 3, 0),          # cram: no rescheduling
    (T0 - 12 * DAY, 11, 0, 4, 2500),       # set due date
    (T0 - 10 * DAY, 11, 3, 1, 2500),
]

db_path = tempfile.mktemp(suffix='.db')
db = sqlite3.connect(db_path)
db.create_collation('unicase', lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower()))
ver = 18 if fmt == 'anki21b' else 11
db.executescript('''
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
''')

def tmpl(name, ord):
    return {'name': name, 'ord': ord, 'qfmt': '{{Front}}', 'afmt': '{{Back}}'}

models = {
    str(BASIC): {'id': BASIC, 'name': 'Basic', 'type': 0, 'flds': [{'name': 'Front', 'ord': 0}, {'name': 'Back', 'ord': 1}], 'tmpls': [tmpl('Card 1', 0)]},
    str(REVERSED): {'id': REVERSED, 'name': 'Basic (and reversed card)', 'type': 0, 'flds': [{'name': 'Front', 'ord': 0}, {'name': 'Back', 'ord': 1}], 'tmpls': [tmpl('Card 1', 0), tmpl('Card 2', 1)]},
    str(CLOZE): {'id': CLOZE, 'name': 'Cloze', 'type': 1, 'flds': [{'name': 'Text', 'ord': 0}, {'name': 'Back Extra', 'ord': 1}], 'tmpls': [tmpl('Cloze', 0)]},
}
decks = {str(DECK): {'id': DECK, 'name': 'Kafka::Producers'}, '1': {'id': 1, 'name': 'Default'}}

if ver == 11:
    db.execute('INSERT INTO col VALUES (1, 1600000000, 0, 0, 11, 0, 0, 0, ?, ?, ?, ?, ?)',
               ('{}', json.dumps(models), json.dumps(decks), '{}', '{}'))
else:
    db.execute("INSERT INTO col VALUES (1, 1600000000, 0, 0, 18, 0, 0, 0, '', '', '', '', '')")
    db.executescript('''
    CREATE TABLE notetypes (id integer not null primary key, name text not null collate unicase,
      mtime_secs integer not null, usn integer not null, config blob not null);
    CREATE TABLE templates (ntid integer not null, ord integer not null, name text not null collate unicase,
      mtime_secs integer not null, usn integer not null, config blob not null, primary key (ntid, ord)) without rowid;
    CREATE TABLE fields (ntid integer not null, ord integer not null, name text not null collate unicase,
      config blob not null, primary key (ntid, ord)) without rowid;
    CREATE TABLE decks (id integer primary key not null, name text not null collate unicase,
      mtime_secs integer not null, usn integer not null, common blob not null, kind blob not null);
    ''')
    for m in models.values():
        # Notetype.Config: field 1 (kind) as a varint, then a css string (field 3).
        config = (b'\x08\x01' if m['type'] == 1 else b'') + b'\x1a\x03a{}'
        db.execute('INSERT INTO notetypes VALUES (?, ?, 0, 0, ?)', (m['id'], m['name'], config))
        for t in m['tmpls']:
            db.execute('INSERT INTO templates VALUES (?, ?, ?, 0, 0, ?)', (m['id'], t['ord'], t['name'], b''))
        for f in m['flds']:
            db.execute('INSERT INTO fields VALUES (?, ?, ?, ?)', (m['id'], f['ord'], f['name'], b''))
    for d in decks.values():
        db.execute('INSERT INTO decks VALUES (?, ?, 0, 0, ?, ?)', (d['id'], d['name'].replace('::', '\x1f'), b'', b''))

for nid, mid, flds, tags in notes:
    db.execute('INSERT INTO notes VALUES (?, ?, ?, 0, 0, ?, ?, ?, 0, 0, ?)',
               (nid, 'g%d' % nid, mid, tags, '\x1f'.join(flds), flds[0], ''))
for cid, nid, ord, queue in cards:
    db.execute('INSERT INTO cards VALUES (?, ?, ?, ?, 0, 0, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, ?)',
               (cid, nid, DECK, ord, 2 if queue == 2 else 0, queue, ''))
for rid, cid, ease, typ, factor in revlog:
    db.execute('INSERT INTO revlog VALUES (?, ?, 0, ?, 1, 0, ?, 5000, ?)', (rid, cid, ease, factor, typ))
db.commit()
db.close()

png = bytes.fromhex('89504e470d0a1a0a0000000d4948445200000001000000010806000000'
                    '1f15c4890000000d49444154789c6360f8cf00000301010018dd8db00000000049454e44ae426082')

def zstd(data):
    return subprocess.run(['zstd', '-q', '-c'], input=data, capture_output=True, check=True).stdout

def pb_bytes(num, data):
    key = bytes([num << 3 | 2])
    n, length = len(data), b''
    while True:
        b = n & 0x7f
        n >>= 7
        length += bytes([b | (0x80 if n else 0)])
        if not n:
            break
    return key + length + data

with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    col = open(db_path, 'rb').read()
    if fmt == 'anki2':
        z.writestr('collection.anki2', col)
        z.writestr('media', json.dumps({'0': 'diagram.png'}))
        z.writestr('0', png)
    elif fmt == 'anki21':
        z.writestr('collection.anki2', b'')  # Anki writes a stub here for old clients
        z.writestr('collection.anki21', col)
        z.writestr('media', json.dumps({'0': 'diagram.png'}))
        z.writestr('0', png)
    else:
        z.writestr('meta', b'\x08\x03')  # PackageMetadata{version: VERSION_LATEST}
        z.writestr('collection.anki21b', zstd(col))
        entry = pb_bytes(1, b'diagram.png') + b'\x10' + bytes([len(png)])
        z.writestr('media', zstd(pb_bytes(1, entry)))
        z.writestr('0', zstd(png))
os.remove(db_path)
