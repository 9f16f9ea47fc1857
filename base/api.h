/* bspram — how the public headers declare the API.
 *
 * The library is compiled with -fvisibility=hidden: a function or object is
 * exported from libbspram.so only if it is declared between
 * BSPRAM_BEGIN_DECLS and BSPRAM_END_DECLS, which every public (installed)
 * header uses around its declarations. Internal headers (*_internal.h,
 * base/grow.h, base/clock.h) do not, so what they declare stays inside the
 * library. The pair also gives the declarations C linkage in C++.
 *
 * BSPRAM_NORETURN marks a function that never returns, in C11 and in C++.
 */
#ifndef BSPRAM_BASE_API_H
#define BSPRAM_BASE_API_H

#if defined(__GNUC__) || defined(__clang__)
#define BSPRAM_VISIBILITY_PUSH_ _Pragma("GCC visibility push(default)")
#define BSPRAM_VISIBILITY_POP_ _Pragma("GCC visibility pop")
#else
#define BSPRAM_VISIBILITY_PUSH_
#define BSPRAM_VISIBILITY_POP_
#endif

#ifdef __cplusplus
#define BSPRAM_BEGIN_DECLS extern "C" { BSPRAM_VISIBILITY_PUSH_
#define BSPRAM_END_DECLS BSPRAM_VISIBILITY_POP_ }
#define BSPRAM_NORETURN [[noreturn]]
#else
#define BSPRAM_BEGIN_DECLS BSPRAM_VISIBILITY_PUSH_
#define BSPRAM_END_DECLS BSPRAM_VISIBILITY_POP_
#define BSPRAM_NORETURN _Noreturn
#endif

#endif
