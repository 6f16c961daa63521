package gzpage

// CRC-32 of a concatenation from the CRCs of its pieces. In the reflected form that CRC-32
// (IEEE) uses, a CRC is a polynomial over GF(2) with bit 31 holding x^0; appending n bytes to a
// message multiplies its CRC by x^(8n) modulo the CRC polynomial, and the pre- and
// post-conditioning (the all-ones XORs) cancel, so crc(A‖B) = crc(A)·x^(8|B|) ⊕ crc(B).

const poly = 0xedb88320 // x^32 + x^26 + ... + 1, reflected, without the x^32 term

// mulModP multiplies two reflected polynomials modulo the CRC polynomial.
// Without branches (masks instead): the bits are data, so branches on them mispredict.
func mulModP(a, b uint32) uint32 {
	var p uint32
	for i := 31; i >= 0; i-- { // a's coefficients from x^0 (bit 31) upwards
		p ^= b & -(a >> uint(i) & 1)
		b = b>>1 ^ poly&-(b&1) // b·x; an overflow into x^32 is reduced
	}
	return p
}

// x2k[k] is x^(2^k) modulo the polynomial, for squaring our way to x^(8n).
var x2k = func() (t [66]uint32) {
	p := uint32(1) << 30 // x^1
	for k := range t {
		t[k] = p
		p = mulModP(p, p)
	}
	return t
}()

// xPow8n is x^(8n) modulo the polynomial: the factor for appending n bytes.
func xPow8n(n int64) uint32 {
	p := uint32(1) << 31                  // x^0
	for k := 3; n > 0; n, k = n>>1, k+1 { // 8n = n<<3: bit i of n is x^(2^(i+3))
		if n&1 != 0 {
			p = mulModP(x2k[k], p)
		}
	}
	return p
}

// Combine is the CRC-32 (IEEE) of A‖B given crc1 of A, crc2 of B and B's length.
func Combine(crc1, crc2 uint32, len2 int64) uint32 {
	return mulModP(xPow8n(len2), crc1) ^ crc2
}
