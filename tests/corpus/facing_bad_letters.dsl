floor floor-8 { layout "UDXDU" }
