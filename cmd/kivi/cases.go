package main

import (
	"fmt"
	"io"

	"github.com/kivi-go/kivi/examples/incidents"
	"github.com/kivi-go/kivi/inputs/cases"
)

func cmdCases(stdout io.Writer) int {
	for _, c := range cases.List() {
		fmt.Fprintf(stdout, "%-4s %-4s %-28s %s\n", c.ID, c.KiviID, c.Expect, c.Title)
	}
	// The incident library (examples/incidents): public failure reports,
	// verified as written; --no-violation runs the fixed twin.
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Incidents (examples/incidents; --case NAME, --no-violation for the fixed twin):")
	for _, in := range incidents.List() {
		fmt.Fprintf(stdout, "%-29s %-24s %s\n", in.Name, in.Expect, in.Link)
	}
	return exitHolds
}
