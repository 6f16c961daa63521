package anki

import "errors"

// Anki keeps two small protobuf messages in a package (the meta entry and the media list) and
// one in each note type of the latest schema. Their few fields are read here directly from the
// wire format: a varint key (field number << 3 | wire type) before each value.

var errProto = errors.New("malformed protobuf")

// protoField calls fn for each top-level field of b: its number, wire type, and its varint value
// (wire type 0) or bytes (wire type 2). Fixed-size fields are skipped.
func protoField(b []byte, fn func(num int, typ int, v uint64, data []byte) error) error {
	for len(b) > 0 {
		key, n := uvarint(b)
		if n <= 0 {
			return errProto
		}
		b = b[n:]
		num, typ := int(key>>3), int(key&7)
		switch typ {
		case 0:
			v, n := uvarint(b)
			if n <= 0 {
				return errProto
			}
			b = b[n:]
			if err := fn(num, typ, v, nil); err != nil {
				return err
			}
		case 1:
			if len(b) < 8 {
				return errProto
			}
			b = b[8:]
		case 2:
			l, n := uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return errProto
			}
			data := b[n : n+int(l)]
			b = b[n+int(l):]
			if err := fn(num, typ, 0, data); err != nil {
				return err
			}
		case 5:
			if len(b) < 4 {
				return errProto
			}
			b = b[4:]
		default:
			return errProto
		}
	}
	return nil
}

// uvarint decodes a protobuf varint; n <= 0 when b does not hold a whole one.
func uvarint(b []byte) (v uint64, n int) {
	for i := 0; i < len(b) && i < 10; i++ {
		v |= uint64(b[i]&0x7f) << (7 * i)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// protoVarintField is the varint field num of message b (0 when absent, as proto3 defaults).
func protoVarintField(b []byte, num int) (uint64, error) {
	var out uint64
	err := protoField(b, func(n, typ int, v uint64, _ []byte) error {
		if n == num && typ == 0 {
			out = v
		}
		return nil
	})
	return out, err
}

// protoMediaNames lists the names in a MediaEntries message (field 1: repeated MediaEntry, whose
// field 1 is the name), in order: entry i is stored in the zip as "i".
func protoMediaNames(b []byte) ([]string, error) {
	var names []string
	err := protoField(b, func(n, typ int, _ uint64, entry []byte) error {
		if n != 1 || typ != 2 {
			return nil
		}
		name := ""
		if err := protoField(entry, func(n, typ int, _ uint64, data []byte) error {
			if n == 1 && typ == 2 {
				name = string(data)
			}
			return nil
		}); err != nil {
			return err
		}
		names = append(names, name)
		return nil
	})
	return names, err
}

// appendVarint and appendBytesField write the wire format, for tests and the writer.
func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendBytesField(b []byte, num int, data []byte) []byte {
	b = appendVarint(b, uint64(num)<<3|2)
	b = appendVarint(b, uint64(len(data)))
	return append(b, data...)
}
