package main

import (
	"fmt"
	"io"

	"github.com/kivi-go/kivi"
)

func cmdCases(stdout io.Writer) int {
	var incidents []kivi.CaseInfo
	for _, c := range kivi.Cases() {
		if c.Incident {
			incidents = append(incidents, c)
			continue
		}
		fmt.Fprintf(stdout, "%-4s %-4s %-28s %s\n", c.Name, c.KiviID, c.Expect, c.Title)
	}
	// The incident library (examples/incidents): public failure reports,
	// verified as written; --no-violation runs the fixed twin.
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "Incidents (examples/incidents; --case NAME, --no-violation for the fixed twin):")
	for _, in := range incidents {
		fmt.Fprintf(stdout, "%-29s %-24s %s\n", in.Name, in.Expect, in.Link)
	}
	return exitHolds
}
