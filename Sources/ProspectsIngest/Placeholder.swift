// ProspectsIngest
