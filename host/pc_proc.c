/* placeholder until the process runner lands */
#include "pc_proc.h"
