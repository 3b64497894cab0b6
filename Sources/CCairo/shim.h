#ifndef PERMITREADY_CCAIRO_SHIM_H
#define PERMITREADY_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#endif
