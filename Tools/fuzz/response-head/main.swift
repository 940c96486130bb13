import CourierCurl
import CourierFuzzSupport

FuzzTarget(name: "response-head", property: responseHeadProperty).run()
