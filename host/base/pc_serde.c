/* placeholder until the serde layer lands */
#include "pc_serde.h"
