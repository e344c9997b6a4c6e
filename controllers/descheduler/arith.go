package descheduler

import (
	"strconv"
	"strings"
)

// ceilDiv is ⌈a / b⌉ for b > 0 and any sign of a. The topology plugin
// compares against the ideal average sum/domains, which upstream keeps as a
// float64; the model keeps it as the exact fraction and rounds with this.
func ceilDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// plus1 renders pod slots as printed pod numbers (slot + 1).
func plus1(pods []int) string {
	parts := make([]string, len(pods))
	for i, p := range pods {
		parts[i] = strconv.Itoa(p + 1)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func itoa(i int) string { return strconv.Itoa(i) }
