// lazy_library.h is all macros; a C target needs one source file.
#include "lazy_library.h"
