package main

import (
	"fmt"
	"io"

	"github.com/kivi-go/kivi/model/cases"
)

func cmdCases(stdout io.Writer) int {
	for _, c := range cases.List() {
		fmt.Fprintf(stdout, "%-4s %-4s %-28s %s\n", c.ID, c.KiviID, c.Expect, c.Title)
	}
	return exitHolds
}
