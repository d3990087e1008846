/* The emulated libamdhip64: a thin C layer that embeds CPython and forwards every HIP call to
 * cass_cc.runtime.emulated.api.API[name] (Python does all the work, with cass_cc.emu).
 *
 * Python starts on the first HIP call, which for a hipcc-built program is
 * __hipRegisterFatBinary in a static constructor, so start-up is guarded by pthread_once.
 * Afterwards the GIL is released and each call takes it with PyGILState_Ensure, so programs may
 * call HIP from any thread. Python is never finalised: atexit handlers of the program
 * (__hipUnregisterFatBinary) may still call in while the process exits, so the runtime's own
 * exit functions (Python's atexit) are run by the C library's exit instead.
 *
 * A program that is a Python interpreter (python calling the CUDA driver through ctypes or
 * cuda-python) brings its own interpreter: the runtime runs in it, its atexit functions run when
 * that interpreter is finalised, and a HIP call after that finds no runtime left.
 */
#define _GNU_SOURCE
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim.h"

static pthread_once_t python_once = PTHREAD_ONCE_INIT;
static PyObject *api_table; /* dict: HIP function name -> Python callable */

static void fail(const char *what) {
    fprintf(stderr, "cass-run: error: the emulated HIP runtime could not start: %s\n", what);
    if (Py_IsInitialized() && PyErr_Occurred()) PyErr_Print();
    fflush(NULL);
    _exit(1);
}

static void configure(PyConfig *config) {
    /* Isolated: the program's PYTHON* variables must not change the runtime's interpreter.
     * cass-run passes the sys.path of the Python it runs under (venv, cass_cc, numpy). */
    const char *paths = getenv("CASS_EMUHIP_SYSPATH");
    if (!paths || !*paths) fail("CASS_EMUHIP_SYSPATH is not set; run the program with cass-run");
    PyConfig_InitIsolatedConfig(config);
    config->install_signal_handlers = 0;
    config->site_import = 0;
    config->module_search_paths_set = 1;
    const char *home = getenv("CASS_EMUHIP_PYTHONHOME");
    if (home && *home) {
        PyStatus st = PyConfig_SetBytesString(config, &config->home, home);
        if (PyStatus_Exception(st)) fail("bad CASS_EMUHIP_PYTHONHOME");
    }
    char *copy = strdup(paths);
    for (char *save = NULL, *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        wchar_t *w = Py_DecodeLocale(p, NULL);
        if (!w) fail("undecodable path in CASS_EMUHIP_SYSPATH");
        PyStatus st = PyWideStringList_Append(&config->module_search_paths, w);
        PyMem_RawFree(w);
        if (PyStatus_Exception(st)) fail("out of memory");
    }
    free(copy);
}

static void load_api_table(void) {
    PyObject *module = PyImport_ImportModule("cass_cc.runtime.emulated.api");
    if (!module) fail("cannot import cass_cc.runtime.emulated.api");
    api_table = PyObject_GetAttrString(module, "API");
    Py_DECREF(module);
    if (!api_table || !PyDict_Check(api_table)) fail("cass_cc.runtime.emulated.api.API is not a dict");
}

/* The C library's exit: Python's atexit functions of the interpreter started here. */
static void run_exit_functions(void) {
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *atexit = PyImport_ImportModule("atexit");
    PyObject *ret = atexit ? PyObject_CallMethod(atexit, "_run_exitfuncs", NULL) : NULL;
    if (!ret) PyErr_Print();
    Py_XDECREF(ret);
    Py_XDECREF(atexit);
    PyGILState_Release(g);
}

static void start_python(void) {
    if (Py_IsInitialized()) { /* the program embeds Python itself */
        PyGILState_STATE g = PyGILState_Ensure();
        load_api_table();
        PyGILState_Release(g);
        return;
    }
    /* Extension modules (_ctypes, numpy) find Python's symbols in the global namespace; a
       program that dlopens a library using us with RTLD_LOCAL would hide them. */
    Dl_info info;
    if (dladdr((void *)&Py_IsInitialized, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    PyConfig config;
    configure(&config);
    PyStatus st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) fail(st.err_msg ? st.err_msg : "Py_InitializeFromConfig failed");
    load_api_table();
    atexit(run_exit_functions);
    PyEval_SaveThread(); /* release the GIL: calls take it per call */
}

unsigned long long cass_call(const char *name, const char *format, ...) {
    pthread_once(&python_once, start_python);
    if (!Py_IsInitialized()) /* the program's own interpreter has been finalised */
        return 4; /* hipErrorDeinitialized */
    PyGILState_STATE g = PyGILState_Ensure();
    unsigned long long result = 999; /* hipErrorUnknown */
    va_list ap;
    va_start(ap, format);
    PyObject *args = Py_VaBuildValue(format, ap);
    va_end(ap);
    PyObject *fn = args ? PyDict_GetItemString(api_table, name) : NULL;
    PyObject *ret = fn ? PyObject_CallObject(fn, args) : NULL;
    if (ret) {
        result = ret == Py_None ? 0 : PyLong_AsUnsignedLongLongMask(ret);
        Py_DECREF(ret);
    }
    if (PyErr_Occurred()) {
        fprintf(stderr, "cass-run: internal error in the emulated %s:\n", name);
        PyErr_Print();
        result = 999;
    } else if (!fn) {
        fprintf(stderr, "cass-run: internal error: the emulated runtime has no %s\n", name);
    }
    Py_XDECREF(args);
    PyGILState_Release(g);
    return result;
}

/* Functions whose results are plain C values: no Python needed. */

/* IEEE binary32 <-> binary16, round to nearest even (what ROCm exports for half on the host;
 * done by hand because not every host C compiler has _Float16). */
unsigned short __gnu_f2h_ieee(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, mant = x & 0x7fffff;
    if (exp == 0xff) return (unsigned short)(sign | 0x7c00 | (mant ? 0x200 | (mant >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31) return (unsigned short)(sign | 0x7c00);
    uint32_t half, rest, tie;
    if (e <= 0) { /* a binary16 subnormal, or zero */
        if (e < -10) return (unsigned short)sign;
        int shift = 14 - e;
        mant |= 0x800000;
        half = mant >> shift;
        rest = mant & ((1u << shift) - 1);
        tie = 1u << (shift - 1);
    } else {
        half = ((uint32_t)e << 10) | (mant >> 13);
        rest = mant & 0x1fff;
        tie = 0x1000;
    }
    if (rest > tie || (rest == tie && (half & 1))) half++; /* a carry may round up to inf */
    return (unsigned short)(sign | half);
}

float __gnu_h2f_ieee(unsigned short h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff, x;
    if (exp == 0x1f) {
        x = sign | 0x7f800000 | (mant << 13);
    } else if (exp) {
        x = sign | ((exp + 112) << 23) | (mant << 13);
    } else if (!mant) {
        x = sign;
    } else { /* subnormal: normalise */
        uint32_t e = 113;
        while (!(mant & 0x400)) { mant <<= 1; e--; }
        x = sign | (e << 23) | ((mant & 0x3ff) << 13);
    }
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
    hipChannelFormatDesc d = {x, y, z, w, f};
    return d;
}
