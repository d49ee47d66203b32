import ProspectsCLI

// Everything lives in ProspectsCLI so that it can be tested; this file only hands over argv and exits.
ProspectsCommand.main()
