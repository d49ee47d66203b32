// ProspectsTestSupport
