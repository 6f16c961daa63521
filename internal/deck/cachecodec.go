package deck

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"html/template"
	"time"
)

// The cache file's own encoding: gob spent most of a warm start allocating a value per field.
// Here every string of a card is a substring of the whole file, so
// decoding allocates little more than the cards themselves.
//
// File: magic, version, card count, then per card its 32-byte key and fields in the order of
// encodeCard. Numbers are uvarints; strings are a length and bytes.

const cacheMagic = "rehearse-deck-cache\n"

type cacheEncoder struct{ bytes.Buffer }

func (e *cacheEncoder) num(n uint64) { e.Write(binary.AppendUvarint(e.AvailableBuffer(), n)) }
func (e *cacheEncoder) str(s string) { e.num(uint64(len(s))); e.WriteString(s) }

func (e *cacheEncoder) strs(ss []string) {
	e.num(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *cacheEncoder) block(b Block) { e.str(string(b.HTML)); e.str(b.Text) }

func (e *cacheEncoder) blocks(bs []Block) {
	e.num(uint64(len(bs)))
	for _, b := range bs {
		e.block(b)
	}
}

func (e *cacheEncoder) card(c *Card) error {
	e.str(c.ID)
	e.str(c.Question)
	e.str(c.Topic)
	e.strs(c.Tags)
	e.num(uint64(c.Timing.Basics))
	e.num(uint64(c.Timing.Solid))
	e.num(uint64(c.Timing.Deeper))
	if c.Sim == nil {
		e.num(0)
	} else {
		e.num(1)
		e.str(c.Sim.Preset)
		e.strs(c.Sim.Compare)
		e.str(c.Sim.Caption)
		e.num(uint64(c.Sim.Line))
		// Overrides are free-form YAML values, rare enough for gob.
		var over bytes.Buffer
		if c.Sim.Overrides != nil {
			if err := gob.NewEncoder(&over).Encode(c.Sim.Overrides); err != nil {
				return err
			}
		}
		e.str(over.String())
	}
	e.str(c.File)
	e.blocks(c.Answer)
	e.block(c.Basics)
	e.block(c.Solid)
	for _, b := range c.Deeper {
		e.block(b)
	}
	e.block(c.Explanation)
	e.num(uint64(len(c.FollowUps)))
	for _, f := range c.FollowUps {
		e.str(f.Question)
		e.block(f.Answer)
	}
	e.blocks(c.Pitfalls)
	e.num(uint64(c.idLine))
	return nil
}

var errCorrupt = errors.New("corrupt cache data")

// cacheDecoder reads from s, the whole file; after the first problem err is set and every
// read returns zero values.
type cacheDecoder struct {
	s   string
	off int
	err error
}

func (d *cacheDecoder) num() uint64 {
	if d.err != nil {
		return 0
	}
	var n uint64
	for shift := 0; ; shift += 7 {
		if d.off >= len(d.s) || shift > 63 {
			d.err = errCorrupt
			return 0
		}
		b := d.s[d.off]
		d.off++
		n |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return n
		}
	}
}

// count reads a length, refusing one longer than what is left of the file.
func (d *cacheDecoder) count() int {
	n := d.num()
	if n > uint64(len(d.s)-d.off) {
		d.err = errCorrupt
		return 0
	}
	return int(n)
}

func (d *cacheDecoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	d.off += n
	return d.s[d.off-n : d.off]
}

func (d *cacheDecoder) strs() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.str()
	}
	return ss
}

func (d *cacheDecoder) block() Block { return Block{HTML: template.HTML(d.str()), Text: d.str()} }

func (d *cacheDecoder) blocks() []Block {
	n := d.count()
	if n == 0 {
		return nil
	}
	bs := make([]Block, n)
	for i := range bs {
		bs[i] = d.block()
	}
	return bs
}

func (d *cacheDecoder) card() *Card {
	c := &Card{ID: d.str(), Question: d.str(), Topic: d.str(), Tags: d.strs()}
	c.Timing = Timing{time.Duration(d.num()), time.Duration(d.num()), time.Duration(d.num())}
	if d.num() == 1 {
		sim := &Simulation{Preset: d.str(), Compare: d.strs(), Caption: d.str(), Line: int(d.num())}
		if over := d.str(); over != "" {
			if err := gob.NewDecoder(bytes.NewBufferString(over)).Decode(&sim.Overrides); err != nil {
				d.err = fmt.Errorf("simulation overrides: %w", err)
			}
		}
		c.Sim = sim
	}
	c.File = d.str()
	c.Answer = d.blocks()
	c.Basics, c.Solid = d.block(), d.block()
	for i := range c.Deeper {
		c.Deeper[i] = d.block()
	}
	c.Explanation = d.block()
	if n := d.count(); n > 0 {
		c.FollowUps = make([]FollowUp, n)
		for i := range c.FollowUps {
			c.FollowUps[i] = FollowUp{Question: d.str(), Answer: d.block()}
		}
	}
	c.Pitfalls = d.blocks()
	c.idLine = int(d.num())
	return c
}
