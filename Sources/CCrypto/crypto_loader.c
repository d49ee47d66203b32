// libcrypto loaded on first use (see crypto_shim.h). Each function the Crypto module calls is defined here
// with libcrypto's own name and signature, and forwards to the library's. When libcrypto cannot be loaded, each
// fails as libcrypto does when it cannot allocate: NULL, or 0 for a status.
#include "crypto_shim.h"

#include "lazy_library.h"
#include <stddef.h>

#define PROSPECTS_CRYPTO_FUNCTIONS(X)                                                                                 \
    X(const EVP_MD *, EVP_sha256, (void), ())                                                                         \
    X(int, EVP_Digest,                                                                                                \
        (const void *data, size_t count, unsigned char *digest, unsigned int *size, const EVP_MD *type,               \
            ENGINE *engine),                                                                                          \
        (data, count, digest, size, type, engine))                                                                    \
    X(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                                       \
    X(void, EVP_MD_CTX_free, (EVP_MD_CTX * context), (context))                                                       \
    X(int, EVP_DigestInit_ex, (EVP_MD_CTX * context, const EVP_MD *type, ENGINE *engine), (context, type, engine))    \
    X(int, EVP_DigestUpdate, (EVP_MD_CTX * context, const void *data, size_t count), (context, data, count))          \
    X(int, EVP_DigestFinal_ex, (EVP_MD_CTX * context, unsigned char *digest, unsigned int *size),                     \
        (context, digest, size))                                                                                      \
    X(int, PKCS5_PBKDF2_HMAC,                                                                                         \
        (const char *password, int password_length, const unsigned char *salt, int salt_length, int iterations,       \
            const EVP_MD *digest, int key_length, unsigned char *key),                                                \
        (password, password_length, salt, salt_length, iterations, digest, key_length, key))                        \
    X(unsigned char *, HMAC,                                                                                          \
        (const EVP_MD *digest, const void *key, int key_length, const unsigned char *data, size_t count,              \
            unsigned char *mac, unsigned int *mac_length),                                                            \
        (digest, key, key_length, data, count, mac, mac_length))

// The definitions below are hidden: the executable exports its symbols, and the calls libpq and libssl make into
// libcrypto should not come here.
#pragma GCC visibility push(hidden)

// The library's functions, once loaded (lazy_library.h).
PROSPECTS_LAZY_LIBRARY("libcrypto.so.3", PROSPECTS_CRYPTO_FUNCTIONS, "")

const EVP_MD *EVP_sha256(void) { return available() ? library.EVP_sha256() : NULL; }
int EVP_Digest(const void *data, size_t count, unsigned char *digest, unsigned int *size, const EVP_MD *type,
    ENGINE *engine) {
    return available() ? library.EVP_Digest(data, count, digest, size, type, engine) : 0;
}
EVP_MD_CTX *EVP_MD_CTX_new(void) { return available() ? library.EVP_MD_CTX_new() : NULL; }
void EVP_MD_CTX_free(EVP_MD_CTX *context) {
    if (available()) library.EVP_MD_CTX_free(context);
}
int EVP_DigestInit_ex(EVP_MD_CTX *context, const EVP_MD *type, ENGINE *engine) {
    return available() ? library.EVP_DigestInit_ex(context, type, engine) : 0;
}
int EVP_DigestUpdate(EVP_MD_CTX *context, const void *data, size_t count) {
    return available() ? library.EVP_DigestUpdate(context, data, count) : 0;
}
int EVP_DigestFinal_ex(EVP_MD_CTX *context, unsigned char *digest, unsigned int *size) {
    return available() ? library.EVP_DigestFinal_ex(context, digest, size) : 0;
}
int PKCS5_PBKDF2_HMAC(const char *password, int password_length, const unsigned char *salt, int salt_length,
    int iterations, const EVP_MD *digest, int key_length, unsigned char *key) {
    return available() ? library.PKCS5_PBKDF2_HMAC(
                             password, password_length, salt, salt_length, iterations, digest, key_length, key)
                       : 0;
}

unsigned char *HMAC(const EVP_MD *digest, const void *key, int key_length, const unsigned char *data, size_t count,
    unsigned char *mac, unsigned int *mac_length) {
    return available() ? library.HMAC(digest, key, key_length, data, count, mac, mac_length) : NULL;
}

#pragma GCC visibility pop
