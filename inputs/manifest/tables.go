package manifest

import (
	"strings"
)

// table is a kubectl table: a header and rows of cells by column name.
// Two layouts are read: Kivi's CSV logs ("NAME,CPU(cores),...," with a
// trailing comma) and kubectl's own aligned columns, which are cut at the
// header's column starts so that cells with spaces ("cpu: 50%/80%")
// survive.
type table struct {
	header []string
	rows   []tableRow
}

type tableRow struct {
	line  int // 1-based line in the file
	cells map[string]string
}

func parseTable(data []byte) table {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var t table
	var starts []int
	csv := false
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if t.header == nil {
			csv = strings.Contains(line, ",")
			if csv {
				for _, h := range strings.Split(strings.TrimRight(strings.TrimSpace(line), ","), ",") {
					t.header = append(t.header, strings.TrimSpace(h))
				}
			} else {
				inWord := false
				for j, r := range line {
					if r != ' ' && r != '\t' && !inWord {
						starts = append(starts, j)
					}
					inWord = r != ' ' && r != '\t'
				}
				t.header = strings.Fields(line)
			}
			continue
		}
		row := tableRow{line: i + 1, cells: map[string]string{}}
		if csv {
			cells := strings.Split(strings.TrimRight(strings.TrimSpace(line), ","), ",")
			for j, h := range t.header {
				if j < len(cells) {
					row.cells[h] = strings.TrimSpace(cells[j])
				}
			}
		} else {
			for j, h := range t.header {
				if starts[j] >= len(line) {
					break
				}
				end := len(line)
				if j+1 < len(starts) && starts[j+1] < end {
					end = starts[j+1]
				}
				row.cells[h] = strings.TrimSpace(line[starts[j]:end])
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

func (t table) has(col string) bool {
	for _, h := range t.header {
		if h == col {
			return true
		}
	}
	return false
}
