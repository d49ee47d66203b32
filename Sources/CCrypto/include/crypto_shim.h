#ifndef PROSPECTS_CRYPTO_SHIM_H
#define PROSPECTS_CRYPTO_SHIM_H

/// libcrypto's API, as the Crypto module (SHA-256, HMAC-SHA-256, PBKDF2) calls it. The functions they use are defined
/// in crypto_loader.c, which loads libcrypto on the first call, not at process start-up.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#endif
