"""The command line: the only place that prints or exits. One module per subcommand."""
