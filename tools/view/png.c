/* The stb image reader and writer, compiled once for the viewer: the screenshot is written with
 * stb_image_write, and --check reads screenshots back with stb_image. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include "stb_image.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "stb_image_write.h"
